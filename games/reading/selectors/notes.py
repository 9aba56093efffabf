"""A player's private notes on the other seats of a game (models.PlayerNote): the
author's own, for the game page and the notes page, and those the authors shared, for
the reveal. Nobody else's notes are ever read for a page."""

from dataclasses import dataclass

from django.db.models import F, FilteredRelation, Q

from games.models import PlayerNote
from games.selectors.seats import display_names, seats_listed


@dataclass
class NoteView:
    seat: str  # the seat's name
    read: str  # "", "town", "scum", "unsure"
    read_label: str  # "town read"
    text: str
    shared: bool


def seats_annotated(seats, user):
    """`seats` (a QuerySet of Seat) with `user`'s own note on each read in the same query
    (a LEFT JOIN on the note's one row per author and seat), for note_of; as they were
    for a visitor."""
    if not user.is_authenticated:
        return seats
    mine = FilteredRelation("notes_about", condition=Q(notes_about__author=user))
    return seats.annotate(
        mine=mine,
        note_pk=F("mine__pk"),
        note_read=F("mine__read"),
        note_text=F("mine__text"),
        note_shared=F("mine__shared"),
    )


def note_of(seat) -> NoteView | None:
    """The note seats_annotated read with `seat`, or None."""
    if getattr(seat, "note_pk", None) is None:
        return None
    label = PlayerNote.Read(seat.note_read).label
    return NoteView(seat.name, seat.note_read, label, seat.note_text, seat.note_shared)


def seats_noted(game, user) -> list:
    """seats_public's seats (the same rows, in the same order, without their cards), each
    with `user`'s own note on it as `note`: a NoteView, or None. One query."""
    seats = list(seats_annotated(seats_listed(game), user))
    for seat in seats:
        seat.note = note_of(seat)
    return seats


def viewer_notes(seats) -> dict:
    """The viewer's notes on `seats` (read by seats_annotated), by seat name."""
    notes = {}
    for seat in seats:
        note = note_of(seat)
        if note is not None:
            notes[seat.name] = note
    return notes


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
