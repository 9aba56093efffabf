"""The rooms beside the public thread: the meetings of W-26a and the afterlife (W-17).

Access is computed from the seat (never the user), so a replacement inherits a room at
once and the replaced player loses it at once; the dead lose a meeting at once.
"""

from games.engine.rulesets.base import ALIVE

from .mapping import engine_state

LABELS = {
    "coven": "The Coven",
    "juniors": "The Junior Witches",
    "spies": "The Village Spies",
    "musketeers": "The Musketeers",
    "court": "The King's Court",
    "travelers": "The Travelers",
    "innkeeper": "The Inn",
    "pack": "The pack",
    "afterlife": "The afterlife",
}
AFTERLIFE = "afterlife"


def room_label(key):
    if key.startswith("lovers-"):
        return "The Lovers"
    return LABELS.get(key, key)


def in_afterlife(state, name):
    """A Witchhunt seat in the afterlife, or a dead Werewolf player (who has the graveyard
    thread but sees no more than the living: the Werewolf rulings import only W-17's
    silence of the dead)."""
    seat = state.seat(name)
    if seat is None:
        return False
    if state.RULESET == "witchhunt":
        return state.sees_everything(seat)
    return seat.status != ALIVE and seat.status != "removed"


def rooms_for(game, seat, state=None):
    """The room keys a seat may read and write now, meetings first, then the afterlife."""
    if seat is None or game.status != game.Status.RUNNING:
        return []  # the rooms open with the game and close at its end (the reveal shows all)
    state = state or engine_state(game)
    keys = [k for k, members in state.meetings().items() if seat.name in members]
    if in_afterlife(state, seat.name):
        keys.append(AFTERLIFE)
    return keys
