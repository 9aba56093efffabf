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


def sees_everything(game, name) -> bool:
    """Whether seat `name` sees every event now: a Witchhunt seat in the afterlife (W-17);
    never a Werewolf seat, dead or alive (WW-17)."""
    seat = game.seat(name) if name is not None else None
    return bool(seat is not None and getattr(game, "sees_everything", lambda s: False)(seat))


def visible_events(game, name=None, *, moderator=False):
    """The events seat `name` may see now (anonymous when `name` is None)."""
    afterlife = sees_everything(game, name)
    return [e for e in game.events if can_see(e, name, afterlife=afterlife, moderator=moderator)]
