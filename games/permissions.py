"""Who may do and see what: predicates only, no writes.

Room access is computed from the seat (never the user), so a replacement inherits a room
at once and the replaced player loses it at once; the dead lose a meeting at once.
"""

from games.engine.rulesets.base import ALIVE, REMOVED

from .mapping import engine_state

# The afterlife's room key (W-17; the Werewolf graveyard, WW-17).
AFTERLIFE = "afterlife"


def can_moderate(game, user) -> bool:
    """The game's host, or staff, moderates it (and so may not play in it)."""
    return user.is_authenticated and (user.pk == game.host_id or user.is_staff)


def in_afterlife(state, name) -> bool:
    """A Witchhunt seat in the afterlife, or a dead Werewolf player (who has the graveyard
    thread but sees no more than the living: WW-17)."""
    seat = state.seat(name)
    if seat is None:
        return False
    if state.RULESET == "witchhunt":
        return state.sees_everything(seat)
    return seat.status != ALIVE and seat.status != REMOVED


def rooms_for(game, seat, state=None) -> list[str]:
    """The room keys a seat may read and write now, meetings first, then the afterlife."""
    if seat is None or game.status != game.Status.RUNNING:
        return []  # the rooms open with the game and close at its end (the reveal shows all)
    state = state or engine_state(game)
    keys = [k for k, members in state.meetings().items() if seat.name in members]
    if in_afterlife(state, seat.name):
        keys.append(AFTERLIFE)
    return keys
