"""Whether the games stored in the database still replay to what they announced.

A rules revision changes how the engine resolves some inputs. The stored events are what
the players were told, and a game's state is always replayed from its inputs, so a game
that would now resolve differently must not be replayed silently into another result.
Since revision 3 (W-76) each game is replayed under the revision it started with
(`Game.revision`), so a game differs only when the engine no longer plays its own
revision as it did. The check ran in the migration that adopted revision 2 (0004, which
refused to go on while any game differed) and is `manage.py replay_check`, for operators
before and after an upgrade.
"""

from ..mapping import replay_mismatch
from ..models import Game


def stored_games_that_differ() -> list[tuple[int, str, str]]:
    """(game id, title, where it differs) for every started game whose replay, by today's
    engine under the game's own revision of the rulings, differs from the events it
    stored."""
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
