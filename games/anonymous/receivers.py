"""What the anonymous games hear of the core: a game opened from the new-game form
(GAME_OPENED, its extras) and a seat being taken (SEAT_NAMING)."""

from games import queue

from .forms import FIELD
from .services import alias_drawn, anonymity_opened


def seat_named(value, *, game, user, **_):
    """An anonymous game's seat is named by a free alias, whoever takes it."""
    return alias_drawn(game) or value


def opened(*, game, extras, **_):
    """The new-game form's choice of a theme (the desk takes the host's own list)."""
    anonymity_opened(game, extras.get(FIELD, ""))


def connect() -> None:
    queue.connect(queue.SEAT_NAMING, seat_named)
    queue.connect(queue.GAME_OPENED, opened)
