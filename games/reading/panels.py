"""What reading shows on the core's pages (games/panels.py): the viewer's private notes on
the players, beside each player and each of their posts on the game page, the link to the
notes page under the player list, and the notes the players shared in the reveal; the
read bar over a thread, "N new" beside the threads' links (the seat's rooms, the private
threads read from the desk, a room or the afterlife), the game page's "Since you last
read" link and the new posts beside its link to the desk, and "N new" beside each of the
viewer's games in the lobby.

The thread pages' providers show what the page's THREAD_OPENED and THREAD_SHOWN left on
the request (views/threads.py): they read nothing more.
"""

from games import panels
from games.models import Game

from .selectors.news import lobby_news, news_by_ref
from .selectors.notes import shared_notes, viewer_notes
from .selectors.readable import readable
from .views.threads import reading_of


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


# The read bar's partial keeps the blank lines the thread pages have always had around it,
# even with no bar to show (no reader, a thread not opened): it is given False then.
NO_BAR = False


def read_bar(*, request=None, **_):
    """The thread's read state, as the viewer had it when they asked for the page."""
    reading = reading_of(request)
    return reading.bar if reading is not None and reading.bar is not None else NO_BAR


def new_by_ref(*, request=None, **_):
    """Room id (or "public") -> new posts, for the links to the threads the viewer reads."""
    reading = reading_of(request)
    return (reading.by_ref or None) if reading is not None else None


def since_link(*, request=None, **_):
    """The game page's "Since you last read": from the visit before this page."""
    reading = reading_of(request)
    return (reading.since_url or None) if reading is not None else None


def private_new(*, request=None, **_):
    """New posts in the private threads the moderator reads, beside the desk's link."""
    reading = reading_of(request)
    bar = reading.bar if reading is not None else None
    return (bar.private_new or None) if bar is not None else None


def desk_news(*, game, user, **_):
    """ "N new" beside every private thread on the desk (the moderator reads them all)."""
    if game.status != Game.Status.RUNNING:
        return None
    return news_by_ref(game, user, readable(game, user, seat=None)) or None


def lobby_badges(*, user, games, **_):
    """Game id -> new posts beside the viewer's running and finished games: one query for
    them all."""
    listed = [g for status in ("running", "finished") for g in games[status]]
    return lobby_news(user, listed) or None


def register() -> None:
    panels.register(panels.GAME, "player_note", "reading/_note_badge.html", notes_badges)
    panels.register(panels.GAME, "post_head", "reading/_note_badge.html", notes_badges)
    panels.register(panels.GAME, "players_foot", "reading/_notes_link.html", notes_link)
    panels.register(panels.REVEAL, "before_log", "reading/_shared_notes.html", notes_shared)
    panels.register(panels.GAME, "read_bar", "reading/_read_bar.html", read_bar)
    panels.register(panels.GAME, "jump_links", "reading/_since_link.html", since_link)
    panels.register(panels.GAME, "desk_link", "reading/_new_count.html", private_new)
    panels.register(panels.GAME, "thread_badge", "reading/_new_badge.html", new_by_ref)
    panels.register(panels.ROOM, "read_bar", "reading/_read_bar.html", read_bar)
    panels.register(panels.ROOM, "thread_badge", "reading/_new_badge.html", new_by_ref)
    panels.register(panels.DESK, "thread_badge", "reading/_new_badge.html", desk_news)
    panels.register(panels.LOBBY, "game_badge", "reading/_game_badge.html", lobby_badges)
