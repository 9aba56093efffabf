"""Whether the games stored in the database still replay to what they announced.

A rules revision changes how the engine resolves some inputs. The stored events are what
the players were told, and a game's state is always replayed from its inputs, so a game
that would now resolve differently must not be replayed silently into another result.
The check runs in the migration that adopts a revision (which refuses to go on while any
game differs) and as `manage.py replay_check` for operators before an upgrade.
"""

from ..mapping import replay_mismatch
from ..models import Game


def stored_games_that_differ() -> list[tuple[int, str, str]]:
    """(game id, title, where it differs) for every started game whose replay under
    today's rules differs from the events it stored."""
    differ = []
    for game in Game.objects.exclude(status=Game.Status.OPEN).order_by("pk"):
        problem = replay_mismatch(game)
        if problem is not None:
            differ.append((game.pk, game.title, problem))
    return differ


def describe(differ) -> str:
    lines = [f"game {pk} ({title}): {problem}" for pk, title, problem in differ]
    return (
        f"{len(differ)} stored game(s) would resolve differently under the revised rules:\n"
        + "\n".join(lines)
        + "\nFinish them (or stop them) on the previous release before upgrading."
    )
