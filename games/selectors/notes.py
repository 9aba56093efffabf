"""A player's private notes on the other seats of a game (models.PlayerNote): the
author's own, for the game page and the notes page, and those the authors shared, for
the reveal. Nobody else's notes are ever read for a page."""

from dataclasses import dataclass

from django.db.models import F, FilteredRelation, Q

from ..models import PlayerNote, Seat
from .seats import display_names


@dataclass
class NoteView:
    seat: str  # the seat's name
    read: str  # "", "town", "scum", "unsure"
    read_label: str  # "town read"
    text: str
    shared: bool


SEAT_FIELDS = ("id", "game_id", "user_id", "name", "position",
               "user__id", "user__player_name", "user__player_key")  # fmt: skip


def seats_noted(game, user) -> list:
    """seats_public's seats (the same rows, in the same order, without their cards), each
    with `user`'s own note on it read in the same query (a LEFT JOIN on the note's one
    row per author and seat) as `note`: a NoteView, or None."""
    # Only what the game and notes pages read of a seat and its player: a whole Seat and
    # User for each of 48 seats was a tenth of the game page's CPU.
    seats = (
        Seat.objects.filter(game=game)
        .select_related("user")
        .only(*SEAT_FIELDS)
        .order_by("position", "pk")
    )
    if not user.is_authenticated:
        seats = list(seats)
        for seat in seats:
            seat.note = None
        return seats
    mine = FilteredRelation("notes_about", condition=Q(notes_about__author=user))
    seats = list(
        seats.annotate(
            mine=mine,
            note_pk=F("mine__pk"),
            note_read=F("mine__read"),
            note_text=F("mine__text"),
            note_shared=F("mine__shared"),
        )
    )
    for seat in seats:
        seat.note = None
        if seat.note_pk is not None:
            label = PlayerNote.Read(seat.note_read).label
            seat.note = NoteView(
                seat.name, seat.note_read, label, seat.note_text, seat.note_shared
            )
    return seats


def viewer_notes(seats) -> dict:
    """The viewer's notes on `seats` (from seats_noted), by seat name."""
    return {s.name: s.note for s in seats if s.note is not None}


def notes_merge(posts, notes: dict):
    """Each post of a thread page (threads.ThreadPage) with the viewer's note on its seat
    as `note` (None without one): a dict lookup a post, no query."""
    if notes:
        for row in posts.loaded().rows:
            row["note"] = notes.get(row["seat"])
    return posts


@dataclass
class NotesPage:
    game: object
    names: dict
    rows: list  # (seat name, display name, NoteView or None), every seat but the author's


def notes_page(game, seat) -> NotesPage:
    """The notes page of the member in `seat`: every other seat with their note on it.
    One query."""
    seats = seats_noted(game, seat.user)
    names = display_names(seats)
    rows = [(s.name, names[s.name], s.note) for s in seats if s.pk != seat.pk]
    return NotesPage(game=game, names=names, rows=rows)


@dataclass
class SharedNote:
    author: str  # the author's player name
    seat: str  # the seat's name
    read_label: str
    text: str


def shared_notes(game) -> list:
    """The notes their authors chose to show in the reveal, by author then seat: one
    query."""
    notes = (
        PlayerNote.objects.filter(game=game, shared=True)
        .select_related("author", "seat")
        .order_by("author__player_name", "seat__position")
    )
    return [
        SharedNote(n.author.player_name, n.seat.name, n.get_read_display(), n.text) for n in notes
    ]
