"""Moments in the site's own notices (the clock's and the moderator's), shown to each
reader in their own time zone.

A notice's HTML carries each moment as `<time datetime="2026-12-03T18:00:00Z">Thu 03 Dec,
18:00 UTC</time>`: the UTC words are the fallback, and the post's text keeps them (a search
finds them). The thread rewrites the words in the reader's zone when it prepares a page
(selectors/threads.py), so nothing about the reader is baked into a post. Notices written
before this have the UTC words in their text only and stay as they are.

Pure: no queries; the reader's zone comes in as a function.
"""

import re
from datetime import UTC, datetime
from html import escape

from django.utils.html import format_html
from django.utils.safestring import mark_safe

from .narration.durations import moment_utc

STAMP = "%Y-%m-%dT%H:%M:%SZ"
# Only the element `notice` writes (a member's post cannot carry a <time>: games/markup.py).
TIME = re.compile(r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">[^<]*</time>')


def time_html(at: datetime) -> str:
    """A moment as a notice stores it: its UTC instant and, inside, its words in UTC."""
    at = at.astimezone(UTC)
    return f'<time datetime="{at:{STAMP}}">{escape(moment_utc(at))}</time>'


def notice(sentence: str, *, css: str = "", **words) -> tuple[str, str]:
    """A notice's text and HTML (one paragraph, of class `css`) from a sentence with
    {named} placeholders: a datetime word is a moment (UTC words in the text, a <time> in
    the HTML), the other words are escaped in the HTML."""
    text_words, html_words = {}, {}
    for key, value in words.items():
        if isinstance(value, datetime):
            text_words[key] = moment_utc(value.astimezone(UTC))
            html_words[key] = mark_safe(time_html(value))
        else:
            text_words[key] = html_words[key] = value
    body = format_html(sentence, **html_words)
    html = format_html('<p class="{}">{}</p>', css, body) if css else format_html("<p>{}</p>", body)
    return sentence.format(**text_words), str(html)


def localise(html: str, moment) -> str:
    """`html` with each notice moment's words in the reader's zone. `moment` maps an aware
    datetime to (iso, long words, short words, zone name), as selectors.threads.moments()
    does; the long words become the element's title."""

    def local(match):
        _iso, long, short, zone = moment(datetime.fromisoformat(match[1]))  # "Z": UTC
        words = f"{short} {zone}" if zone else short
        return f'<time datetime="{match[1]}" title="{escape(long)}">{escape(words)}</time>'

    return TIME.sub(local, html)
