"""The public thread's system posts in words: the summary one advance makes (the day's
final vote count, the lynch or no lynch, what the night brought, the phase that begins),
what kind of post each is (its icon and label), a replaced player's name, and what
shows in place of a post the moderator hid."""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import Phase

from .events import describe_event
from .labels import Names, display_name, name_list, phase_label

# icon key: the label a system post of that kind carries (static/css/site.css draws the
# icons, templates/games/_thread.html holds them once a page).
POST_LABELS = {
    "sun": gettext_lazy("Daybreak"),
    "moon": gettext_lazy("Nightfall"),
    "gallows": gettext_lazy("Lynch"),
    "grave": gettext_lazy("Death"),
    "shield": gettext_lazy("Survival"),
    "end": gettext_lazy("Game over"),
    "notice": gettext_lazy("Announcement"),
    "clock": gettext_lazy("The clock"),
}
ICONS = {"lynch": "gallows", "death": "grave", "survival": "shield", "game_over": "end",
         "stalemate": "end", "public": "notice"}  # fmt: skip
# Which event names a post of several: the end, a lynch, the phase that begins, a death.
HEADLINE = ("game_over", "stalemate", "lynch", "phase", "death", "survival", "public")


def post_icon(kind: str | None, data: Mapping | None) -> str:
    """The icon of a system post whose headline event is `kind` (None: the clock's own
    words): the sun at daybreak, the moon at nightfall, the gallows for a lynch…"""
    if kind is None:
        return "clock"
    if kind == "phase":
        phase = Phase.parse((data or {}).get("phase", ""))
        return "moon" if phase and phase.is_night else "sun"
    return ICONS.get(kind, "notice")


def post_label(icon: str) -> str:
    return str(POST_LABELS.get(icon, POST_LABELS["notice"]))


def headline(kinds: Sequence[str]) -> int:
    """The position in `kinds` of the event that names a post of several."""
    return min(range(len(kinds)), key=lambda i: HEADLINE.index(kinds[i]))


def replaced_name(old: str, new: str) -> str:
    """A replaced player's name on what they wrote and did before the replacement (W-72)."""
    return _("{old} (replaced by {new})").format(old=old, new=new)


def hidden_words(reason: str) -> str:
    """What a thread shows in place of a player's post the moderator hid."""
    if reason:
        return _("The moderator hid this post: {reason}").format(reason=reason)
    return _("The moderator hid this post.")


class Summary(NamedTuple):
    """A summary post in words: the count's title and lines (none when the day did not
    end), then the announcements in order, the phase that begins last."""

    count_title: str
    count_lines: list[str]
    lines: list[str]


def count_words(day: str, count, names: Names) -> tuple[str, list[str]]:
    """A day's final vote count (selectors.votes.VoteCount) as a title and its lines."""
    title = _("Final vote count of {day}:").format(day=phase_label(day))
    lines = [
        _("{target} ({n}): {voters}").format(
            target=display_name(target, names), n=len(voters), voters=name_list(names, voters)
        )
        for target, voters, _left in count.rows
    ]
    if not lines:
        lines.append(_("No votes."))
    lines.append(
        _("Not voting ({n}): {players}").format(
            n=len(count.not_voting), players=name_list(names, count.not_voting)
        )
    )
    return title, lines


def summary(events: Sequence[tuple[str, Mapping]], names: Names, day=None, count=None) -> Summary:
    """The public events of one advance (kind, data), in order, as one post. With `count`
    (the final count of `day`, which the advance ended) the post opens with it, and says
    so when the day ended with no lynch. The phase that begins comes last."""
    title, count_lines = count_words(day, count, names) if count is not None else ("", [])
    lines, begins = [], []
    if count is not None and not any(kind == "lynch" for kind, _data in events):
        lines.append(_("No lynch: nobody reached a majority."))
    for kind, data in events:
        (begins if kind == "phase" else lines).append(describe_event(kind, data, names))
    return Summary(title, count_lines, lines + begins)
