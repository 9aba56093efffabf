"""`@name` in a post, and the quotes a post opens with: found in the text, linked in the
sanitised HTML. Pure: no database; the services say which names belong to the game.

A mention is `@` and a player name (letters, digits, underscores: accounts.validators)
that no letter, digit or `@` touches on either side, so "ann@example.com" is no mention.
It is linked in text only: never inside code (`code`, `pre`) or an existing link, whose
words were the writer's own. The HTML is nh3's output (games/markup.py): tags well formed
and text escaped, so splitting it on tags is exact.
"""

import html
import re
from typing import NamedTuple

from accounts.models import player_key_for
from accounts.validators import PLAYER_NAME_MAX_LENGTH, PLAYER_NAME_MIN_LENGTH

_NAME = rf"[A-Za-z0-9_]{{{PLAYER_NAME_MIN_LENGTH},{PLAYER_NAME_MAX_LENGTH}}}"
MENTION = re.compile(rf"(?<![A-Za-z0-9_@&#/.])@({_NAME})(?![A-Za-z0-9_@])")
# What the quote link writes (selectors.threads.post_quote): "> **Ann** wrote in #12:".
QUOTE_HEAD = re.compile(r"^> \*\*[^*\n]{1,40}\*\* wrote in #([0-9]{1,9}):", re.MULTILINE)
# More mentions or quotes than this in one post notify only the first ones (no mass pings).
MAX_PER_POST = 10

_TAG = re.compile(r"(<[^>]*>)")
_SKIP = {"a", "code", "pre"}  # text inside these is never linked


class Target(NamedTuple):
    """A name of the game a mention may link: the player name as shown, and where to."""

    label: str
    href: str


def mentioned_keys(text: str) -> list[str]:
    """The player keys `@name`s in `text` could be, in order, once each, at most
    MAX_PER_POST: a cheap first look that needs no HTML (code is sorted out later)."""
    keys = dict.fromkeys(player_key_for(m[1]) for m in MENTION.finditer(text))
    return list(keys)[:MAX_PER_POST]


def quoted_numbers(text: str) -> list[int]:
    """The post numbers the quote heads of `text` name, once each, at most MAX_PER_POST."""
    numbers = dict.fromkeys(int(m[1]) for m in QUOTE_HEAD.finditer(text))
    return list(numbers)[:MAX_PER_POST]


def mentions_link(body_html: str, targets: dict[str, Target]) -> tuple[str, list[str]]:
    """`body_html` with each mention of a key of `targets` made a link to its target
    (outside code and links), and the keys linked, in order, once each."""
    if not targets or "@" not in body_html:
        return body_html, []
    found: dict[str, None] = {}
    skipping: list[str] = []
    out = []

    def link(match):
        key = player_key_for(match[1])
        target = targets.get(key)
        if target is None:
            return match[0]
        found[key] = None
        return f'<a href="{html.escape(target.href)}">@{html.escape(target.label)}</a>'

    for part in _TAG.split(body_html):
        if part.startswith("<"):
            name = part[1:].lstrip("/").split(" ", 1)[0].rstrip(">/").lower()
            if name in _SKIP:
                if part.startswith("</"):
                    if name in skipping:
                        skipping.remove(name)
                else:
                    skipping.append(name)
            out.append(part)
        elif skipping or "@" not in part:
            out.append(part)
        else:
            out.append(MENTION.sub(link, part))
    return "".join(out), list(found)[:MAX_PER_POST]
