"""What every write shares: the game row lock, the seat found under it, saving only the
columns a write changed, and the error a game that cannot be created raises.

Every service is one transaction that locks the game row first (`game_locked`), lets
the engine decide, and stores what it said; a refused input stores nothing.
"""

import pickle
from functools import cache

from django.utils.translation import gettext, gettext_lazy

from games.engine import GameRuleError

from ..models import Game, Seat
from ..permissions import can_moderate


class SetupProblems(GameRuleError):
    """A game that cannot be created as asked; `problems` lists every reason."""

    def __init__(self, problems):
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems


def game_locked(game: Game) -> Game:
    """The game's row, locked for this transaction, freshly read.

    Every write locks the game row first: two writers to one game queue here, and each
    re-reads the state the other left (SQLite ignores the lock but serialises writes)."""
    return Game.objects.select_for_update().get(pk=game.pk)


# Whole sentences, one per act, so each translates as a sentence (not "can %(what)s").
NOT_MODERATOR = gettext_lazy("only the game's moderator can do that")
NOT_MODERATOR_CLOCK = gettext_lazy("only the game's moderator can change its clock")
NOT_MODERATOR_HIDE = gettext_lazy("only the game's moderator can hide a post")
NOT_MODERATOR_SHOW = gettext_lazy("only the game's moderator can show a hidden post")


def game_moderated(game: Game, by, *, refusal=NOT_MODERATOR, running: bool = True) -> Game:
    """The game's row locked for its moderator's act on a running game (any game, when not
    `running`); GameRuleError (`refusal`, a NOT_MODERATOR sentence) for anyone else, or for
    a game that is not running."""
    game = game_locked(game)
    if not can_moderate(game, by):
        raise GameRuleError(str(refusal))
    if running and game.status != Game.Status.RUNNING:
        raise GameRuleError(gettext("this game is not running"))
    return game


def seat_of(game: Game, user) -> Seat:
    """The user's seat in `game`. Call it with the game row locked, so that a replacement
    (which takes the same lock) cannot slip in between finding the seat and acting."""
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise GameRuleError(gettext("you are not playing in this game"))
    return seat


@cache
def _saved_fields(model):
    # Columns a save writes: not the key, nor what the database computes.
    return tuple(
        f.attname
        for f in model._meta.concrete_fields
        if not f.primary_key and not getattr(f, "generated", False)
    )


def _value(game, name):
    # A list or a dict (a JSON column) as bytes, so that a change made in place, however
    # deep, counts; pickling is several times cheaper than a deep copy.
    value = getattr(game, name)
    return pickle.dumps(value) if isinstance(value, (list, dict)) else value


def row_values(game: Game) -> dict:
    """What `save_changed` compares with: the row's values now."""
    return {name: _value(game, name) for name in _saved_fields(Game)}


def save_changed(game: Game, before: dict) -> None:
    """Save the columns that differ from `before` (`row_values`), and only those: an input
    changes one or two of the game row's thirty."""
    changed = [name for name, value in before.items() if _value(game, name) != value]
    if changed:
        game.save(update_fields=changed)
