"""What a seat may see: the one reading of event visibility (events.py).

- Everyone sees PUBLIC events.
- A seat sees the events addressed to it (its private results, its meetings).
- The afterlife (a dead Witchhunt player not offstage or removed) sees every event (W-17);
  the offstage and the removed see nothing beyond the living's share (W-14a, W-41, W-72).
- The moderator sees everything.
"""

from .events import DEAD, MODERATOR, PUBLIC


def can_see(event, name, *, afterlife=False, moderator=False):
    if moderator or afterlife:
        return True
    to = event.to
    if to == PUBLIC:
        return True
    if to == DEAD or to == MODERATOR:
        return False
    return name in to


def visible_events(game, name=None, *, moderator=False):
    """The events seat `name` may see now (anonymous when `name` is None)."""
    seat = game.seat(name) if name is not None else None
    afterlife = bool(seat is not None and getattr(game, "sees_everything", lambda s: False)(seat))
    return [e for e in game.events if can_see(e, name, afterlife=afterlife, moderator=moderator)]
