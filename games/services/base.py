"""What every write shares: the game row lock, the seat found under it, and the error a
game that cannot be created raises.

Every service is one transaction that locks the game row first (`game_locked`), lets
the engine decide, and stores what it said; a refused input stores nothing.
"""

from games.engine import GameRuleError

from ..models import Game, Seat
from ..permissions import can_moderate


class SetupProblems(GameRuleError):
    """A game that cannot be created as asked; `problems` lists every reason."""

    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def game_locked(game: Game) -> Game:
    """The game's row, locked for this transaction, freshly read.

    Every write locks the game row first: two writers to one game queue here, and each
    re-reads the state the other left (SQLite ignores the lock but serialises writes)."""
    return Game.objects.select_for_update().get(pk=game.pk)


def game_moderated(game: Game, by, *, what: str = "do that") -> Game:
    """The game's row locked for its moderator's act on a running game; GameRuleError
    for anyone else or a game that is not running."""
    game = game_locked(game)
    if not can_moderate(game, by):
        raise GameRuleError(f"only the game's moderator can {what}")
    if game.status != Game.Status.RUNNING:
        raise GameRuleError("this game is not running")
    return game


def seat_of(game: Game, user) -> Seat:
    """The user's seat in `game`. Call it with the game row locked, so that a replacement
    (which takes the same lock) cannot slip in between finding the seat and acting."""
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise GameRuleError("you are not playing in this game")
    return seat
