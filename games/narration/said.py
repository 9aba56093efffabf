"""The site's own words in a thread, stored as meaning and worded when read.

A system post (the clock's notices, a summary, the start post) and a moderator's notice
of an act ("Zoe replaces Ann.", "The moderator paused the clock…") keep no words: the
post's `words` is `{"kind": …, "args": {…}}` (and `"then": [more parts]`), and the
thread words it for each reader, in their language, every time it is read. The args are
plain data: player names as they were written, phases as keys ("day 2"), lengths of time
in seconds, moments as ISO instants (each reader sees them in their own zone:
games/post_times.py), seat names with the names they showed (`names`). Players' and
moderators' own words are never here: they stay in the post's body as written.

Each kind has a renderer, `render(args, names, css) -> (text, html)`: the core's are
below; a capability registers its own when its app is ready (`register`). `sentence`
makes a renderer of one translatable sentence with %(named)s placeholders, each argument
worded by its name (`WORDERS`) unless the kind says otherwise.
"""

import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta

from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext, gettext_lazy

from .durations import duration_words, moment_here, moment_utc
from .labels import phase_words

Render = Callable[[Mapping, Mapping, str], tuple[str, str]]
KINDS: dict[str, Render] = {}
SENTENCES: dict[str, object] = {}  # kind -> its lazy sentence (the data migration reads them)
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def register(kind: str, render: Render) -> None:
    KINDS[kind] = render


def time_html(at: datetime) -> str:
    """A moment as a notice shows it: its UTC instant and, inside, its words in UTC (the
    thread rewrites them in the reader's zone: post_times.localise)."""
    at = at.astimezone(UTC)
    return f'<time datetime="{at:{STAMP}}">{escape(moment_utc(at))}</time>'


def _moment(value) -> tuple[str, str]:
    """The plain words in the reader's zone (a notification, the digest's line); the HTML's
    in UTC, which the thread rewrites in the reader's zone (post_times.localise)."""
    at = datetime.fromisoformat(value)
    return moment_here(at.astimezone(UTC)), time_html(at)


def _duration(value) -> str:
    return duration_words(timedelta(seconds=value))


def _plain(value) -> tuple[str, str]:
    return str(value), escape(value)


def _text(fn) -> Callable:
    """A worder of plain words (escaped for the HTML)."""
    return lambda value: _plain(fn(value))


# How an argument is worded, by its name: (text, html).
WORDERS = {
    "moment": _moment,
    "left": _text(_duration),
    "delta": _text(_duration),
    "phase": _text(phase_words),
}


def sentence(kind: str, words, **worders) -> Render:
    """Register `kind` as one sentence (a lazy msgid with %(named)s placeholders) and
    return its renderer: the text, and the HTML as one paragraph of class `css`."""
    worders = {**WORDERS, **{k: _text(fn) for k, fn in worders.items()}}

    def render(args, names, css):
        text_words, html_words = {}, {}
        for key, value in args.items():
            text_words[key], html_words[key] = worders.get(key, _plain)(value)
        said = str(words) if not isinstance(words, str) else gettext(words)
        # The sentence is ours (the catalogue's), as format_html takes it: only the
        # arguments are escaped, so a stored notice's HTML reads back byte for byte.
        html = said % html_words
        opening = f'<p class="{css}">' if css else "<p>"
        return said % text_words, f"{opening}{html}</p>"

    SENTENCES[kind] = words
    register(kind, render)
    return render


def meaning(kind: str, **args) -> dict:
    """A post's `words`: its kind and arguments as plain data (a datetime as its ISO
    instant, a timedelta in seconds)."""
    plain = {}
    for key, value in args.items():
        if isinstance(value, datetime):
            value = value.astimezone(UTC).strftime(STAMP)
        elif isinstance(value, timedelta):
            value = int(value.total_seconds())
        plain[key] = value
    return {"kind": kind, "args": plain}


def post_words(words: Mapping, names: Mapping, css: str = "") -> tuple[str, str]:
    """A post's `words` worded in the active language: (text, HTML); ("", "") for a kind
    no installed app words (its capability was removed: the thread shows the post empty
    rather than fail)."""
    text, html = [], []
    for part in [words, *words.get("then", ())]:
        render = KINDS.get(part.get("kind"))
        if render is None:
            continue
        t, h = render(part.get("args", {}), names, css)
        text.append(t)
        html.append(h)
    return "\n".join(filter(None, text)), "".join(html)


def said_text(words: Mapping, fallback: str = "") -> str:
    """Plain words (a notification's line) worded in the active language; `fallback` (its
    stored English) when no installed app words its kind."""
    if not words or words.get("kind") not in KINDS:
        return fallback
    return post_words(words, {})[0]


def said_english(words: Mapping) -> str:
    """`words` in English: what a row keeps as its fallback (its moments in UTC, whoever
    wrote it)."""
    with translation.override("en"), timezone.override(UTC):
        return post_words(words, {})[0]


def first_line(words: Mapping, names: Mapping) -> str:
    return post_words(words, names)[0].split("\n", 1)[0]


# --- the core's notices ------------------------------------------------------------------
# The moderator's acts on the clock (services/clock.py).
CLOCK_PAUSED = "clock_paused"
CLOCK_RESUMED = "clock_resumed"
CLOCK_EXTENDED = "clock_extended"
CLOCK_SHORTENED = "clock_shortened"
CLOCK_SET = "clock_set"
EARLY_END = "early_end"  # services/inputs.py: everyone is done
REPLACES = "replaces"  # services/seats.py (W-72)
ALIAS_REPLACED = "alias_replaced"  # the same in an anonymous game: no member named

sentence(
    CLOCK_PAUSED, gettext_lazy("The moderator paused the clock with %(left)s left in %(phase)s.")
)
sentence(
    CLOCK_RESUMED, gettext_lazy("The moderator restarted the clock: %(phase)s ends %(moment)s.")
)
sentence(
    CLOCK_EXTENDED,
    gettext_lazy("The moderator extended %(phase)s by %(delta)s: it now ends %(moment)s."),
)
sentence(
    CLOCK_SHORTENED,
    gettext_lazy("The moderator shortened %(phase)s by %(delta)s: it now ends %(moment)s."),
)
sentence(
    CLOCK_SET, gettext_lazy("The moderator set the deadline of %(phase)s: it now ends %(moment)s.")
)
sentence(
    EARLY_END, gettext_lazy("Every living player is done with %(phase)s: it now ends %(moment)s.")
)
sentence(REPLACES, gettext_lazy("%(new)s replaces %(old)s."))
sentence(ALIAS_REPLACED, gettext_lazy("A new player takes %(name)s’s seat."))


# --- reading a stored sentence back (the data migration) ---------------------------------
_PLACEHOLDER = re.compile(r"%\\\(([a-z_]+)\\\)s")


def sentence_pattern(english: str) -> re.Pattern:
    """A regular expression matching `english` (a sentence with %(named)s placeholders)
    as it was written, each placeholder a named group."""
    return re.compile("^" + _PLACEHOLDER.sub(r"(?P<\1>.+?)", re.escape(english)) + "$", re.S)
