"""A seat's own inputs: day votes, night actions, abilities and cards, and withdrawing
them. The engine judges each one; its reason for a refusal is shown to the player."""

from django.db import transaction
from django.utils.translation import gettext

from games.engine import GameRuleError

from ..models import Game
from .base import game_locked, seat_of
from .inputs import input_apply


@transaction.atomic
def seat_input_apply(*, game: Game, user, step: dict):
    """Apply `step` as the user's seat's input; returns its GameEvent rows."""
    game = game_locked(game)
    seat = seat_of(game, user)  # under the lock: a replacement cannot slip in (W-72)
    return input_apply(game=game, step={"actor": seat.name, **step}, seat=seat, by=user)


def vote_cast(*, game: Game, user, target: str):
    return seat_input_apply(game=game, user=user, step={"action": "vote", "target": target})


def vote_withdraw(*, game: Game, user):
    return seat_input_apply(game=game, user=user, step={"action": "unvote"})


def action_submit(
    *,
    game: Game,
    user,
    action: str,
    target: str | None = None,
    targets=(),
    guess: str | None = None,
    choice: str | None = None,
):
    """A night action, an ability, a card or a save: the engine says whether it is legal."""
    if action in ("vote", "unvote", "withdraw"):
        raise GameRuleError(gettext("that is not an action"))
    step = {"action": action}
    if action == "ability":
        step["targets"] = [t for t in targets if t]
        if guess:
            step["guess"] = guess
        if choice:
            step["choice"] = choice
    elif action != "archangel":
        if not target:
            raise GameRuleError(gettext("choose a player"))
        step["target"] = target
    return seat_input_apply(game=game, user=user, step=step)


def action_withdraw(*, game: Game, user, what: str):
    return seat_input_apply(game=game, user=user, step={"action": "withdraw", "what": what})
