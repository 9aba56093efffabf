"""What reading shows on the core's pages (games/panels.py): the viewer's private notes on
the players, beside each player and each of their posts on the game page, the link to the
notes page under the player list, and the notes the players shared in the reveal."""

from games import panels
from games.models import Game

from .selectors.notes import shared_notes, viewer_notes


def notes_badges(*, seats, **_):
    """The viewer's notes by seat name (read with the seats: receivers.seats_with_notes),
    or None when they have none: the page is then the same as everyone's."""
    return viewer_notes(seats) or None


def notes_link(*, game, viewer_seat, **_):
    """The notes page's link, for a seated player once the game has started."""
    if viewer_seat is None or game.status == Game.Status.OPEN:
        return None
    return game.pk


def notes_shared(*, game, names, **_):
    """The notes their authors shared, in the reveal: one query."""
    notes = shared_notes(game)
    return {"notes": notes, "names": names} if notes else None


def register() -> None:
    panels.register(panels.GAME, "player_note", "reading/_note_badge.html", notes_badges)
    panels.register(panels.GAME, "post_head", "reading/_note_badge.html", notes_badges)
    panels.register(panels.GAME, "players_foot", "reading/_notes_link.html", notes_link)
    panels.register(panels.REVEAL, "before_log", "reading/_shared_notes.html", notes_shared)
