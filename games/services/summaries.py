"""The summary post an advance makes in the public thread (services/posts.py): the day's
final vote count, the lynch or "no lynch", what the night brought, the phase that begins.

Its meaning is kept in the post (the events, the count, the names the seats had), and the
thread words it when read, in the reader's language: the thread reads it back with the
other posts, in one query. Only public events go in (the count is read back from the
public votes and deaths: selectors/votes.py).
"""

from games.engine import Phase

from ..models import Game
from ..narration.summaries import summary_args
from ..selectors.seats import game_display_names
from ..selectors.votes import day_final_count


def _day_ended(game: Game, rows) -> bool:
    """Whether the advance ended the day the game was in: a lynch, or the night begins."""
    phase = Phase.parse(game.phase)
    return bool(phase) and not phase.is_night and any(r.kind in ("lynch", "phase") for r in rows)


def summary_needed(game: Game, rows) -> bool:
    """Whether the public events `rows` of one advance make a summary, not one event's post."""
    return len(rows) > 1 or _day_ended(game, rows)


def summary_meaning(game: Game, rows) -> dict:
    """The summary of the public events `rows` of one advance as its meaning (a post's
    `words`, narration/summaries.py words it when read); the game row is locked and still
    names the phase the advance ended. Two queries."""
    names = game_display_names(game)  # the seats in their order: the not-voting list's
    day = game.phase if _day_ended(game, rows) else None
    count = day_final_count(game, day, names) if day else None
    return summary_args([(r.kind, r.data) for r in rows], names, day, count)
