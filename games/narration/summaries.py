"""The public thread's system posts in words: the summary one advance makes (the day's
final vote count, the lynch or no lynch, what the night brought, the phase that begins),
what kind of post each is (its icon and label), a replaced player's name, and what
shows in place of a post the moderator hid."""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import Phase

from .events import describe_event
from .labels import Names, display_name, name_list, phase_label
from .said import register

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
    return _("%(old)s (replaced by %(new)s)") % {"old": old, "new": new}


def hidden_words(reason: str) -> str:
    """What a thread shows in place of a player's post the moderator hid."""
    if reason:
        return _("The moderator hid this post: %(reason)s") % {"reason": reason}
    return _("The moderator hid this post.")


class Summary(NamedTuple):
    """A summary post in words: the count's title and lines (none when the day did not
    end), then the announcements in order, the phase that begins last."""

    count_title: str
    count_lines: list[str]
    lines: list[str]


def count_words(day: str, count, names: Names) -> tuple[str, list[str]]:
    """A day's final vote count (selectors.votes.VoteCount) as a title and its lines."""
    title = _("Final vote count of %(day)s:") % {"day": phase_label(day)}
    lines = [
        _("%(target)s (%(n)s): %(voters)s")
        % {
            "target": display_name(target, names),
            "n": len(voters),
            "voters": name_list(names, voters),
        }
        for target, voters, _left in count.rows
    ]
    if not lines:
        lines.append(_("No votes."))
    lines.append(
        _("Not voting (%(n)s): %(players)s")
        % {"n": len(count.not_voting), "players": name_list(names, count.not_voting)}
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


class Count(NamedTuple):
    """A day's final count as a summary keeps it: (target, voters) rows and the seats not
    voting (selectors.votes.VoteCount's parts that the post shows)."""

    rows: list
    not_voting: list


SUMMARY = "summary"  # a post's words kind: one advance's events, with the day's count
EVENTS = "events"  # the start's events, each on its line, in order (the start post)


def summary_args(events, names: Names, day=None, count=None) -> dict:
    """A summary post's meaning (its `words`): the events (kind, data), the day it ended
    and that day's final count (selectors.votes.VoteCount), and the names the seats had
    when it was written (a summary keeps them, as a host's post would)."""
    kept = None
    if count is not None:
        kept = {
            "rows": [[target, list(voters)] for target, voters, *_rest in count.rows],
            "not_voting": list(count.not_voting),
        }
    args = {"events": [[k, d] for k, d in events], "day": day, "count": kept, "names": dict(names)}
    return {"kind": SUMMARY, "args": args}


def _lines_html(lines) -> str:
    return format_html_join("", '<p class="post__announcement">{}</p>', ((x,) for x in lines))


def summary_words(args, names, css="") -> tuple[str, str]:
    """A summary's meaning worded now: (text, HTML), as services/summaries.py once wrote
    them. The names are those it kept; `names` (today's) stand in for any it lacks."""
    names = {**names, **(args.get("names") or {})}
    kept = args.get("count")
    count = None
    if kept is not None:
        count = Count([(t, v, None) for t, v in kept["rows"]], kept["not_voting"])
    words = summary([tuple(e) for e in args["events"]], names, args.get("day"), count)
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
    html.append(_lines_html(words.lines))
    return "\n".join(text), "".join(html)


def events_args(events, names: Names) -> dict:
    return {"kind": EVENTS, "args": {"events": [[k, d] for k, d in events], "names": dict(names)}}


def events_words(args, names, css="") -> tuple[str, str]:
    """Events each told on its own line, in order (the start post the fair deal seals)."""
    names = {**names, **(args.get("names") or {})}
    lines = [describe_event(k, d, names) for k, d in args["events"]]
    return "\n".join(lines), str(_lines_html(lines))


register(SUMMARY, summary_words)
register(EVENTS, events_words)
