"""The summary post an advance makes in the public thread (services/posts.py): the day's
final vote count, the lynch or "no lynch", what the night brought, the phase that begins.

Its words are written when it is posted and kept in the post (text and HTML), as a
host's post is: the thread reads it back with the other posts, in one query. Only public
events go in (the count is read back from the public votes and deaths: selectors/votes.py).
"""

from django.utils.html import format_html, format_html_join

from games.engine import Phase

from ..models import Game
from ..narration.summaries import summary
from ..selectors.seats import game_display_names
from ..selectors.votes import day_final_count


def _day_ended(game: Game, rows) -> bool:
    """Whether the advance ended the day the game was in: a lynch, or the night begins."""
    phase = Phase.parse(game.phase)
    return bool(phase) and not phase.is_night and any(r.kind in ("lynch", "phase") for r in rows)


def summary_needed(game: Game, rows) -> bool:
    """Whether the public events `rows` of one advance make a summary, not one event's post."""
    return len(rows) > 1 or _day_ended(game, rows)


def summary_texts(game: Game, rows) -> tuple[str, str]:
    """The summary of the public events `rows` of one advance, as (text, HTML); the game
    row is locked and still names the phase the advance ended. Two queries."""
    names = game_display_names(game)  # the seats in their order: the not-voting list's
    day = game.phase if _day_ended(game, rows) else None
    count = day_final_count(game, day, names) if day else None
    words = summary([(r.kind, r.data) for r in rows], names, day, count)
    text, html = [], []
    if words.count_title:
        text += [words.count_title, *(f"- {line}" for line in words.count_lines)]
        html.append(
            format_html(
                '<p class="summary__title">{}</p><ul class="vote-count summary__count">{}</ul>',
                words.count_title,
                format_html_join("", "<li>{}</li>", ((line,) for line in words.count_lines)),
            )
        )
    text += words.lines
    html.append(
        format_html_join("", '<p class="post__announcement">{}</p>', ((x,) for x in words.lines))
    )
    return "\n".join(text), "".join(html)
