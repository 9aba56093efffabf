"""What the anonymous games hear of the core: a seat being taken (SEAT_NAMING)."""

from games import queue

from .services import alias_drawn


def seat_named(value, *, game, user, **_):
    """An anonymous game's seat is named by a free alias, whoever takes it."""
    return alias_drawn(game) or value


def connect() -> None:
    queue.connect(queue.SEAT_NAMING, seat_named)
