"""The game page's shared parts as cached HTML (issue 13's thread reads).

A page of the public thread's posts and the day's vote history are the same for every
reader in one time zone until the game changes, and making them was most of the page's
cost. Each is cached under:
- the game's shared version (selectors.live.shared_version: its status, phase, public changes,
  clock and the thread's last post number), so a vote, a post or a deadline makes new ones;
  the posts and the filter instead under what alone changes them (a page's last post, the
  game's status and its count of posts hidden or shown again; the days), so a busy day's
  votes leave the thread's pages cached;
- the players' names (a replacement or a new player name rewords every post);
- the reader's time zone (every time shown is in it) and language (every word);
- for the posts, their page, whether the reader may post (the Reply and Quote links) and
  whether they moderate the game (a Hide link on each player's post).
A reader shown panels of their own on the posts or the players (a capability's marks,
such as private notes: OWN_SLOTS) gets their own posts and list made; a filtered thread
is never cached. What differs per reader (their seat's
panel, their vote, the read bar, the form) is made for each request around these.

Entries live for FRESH_SECONDS: a version is replaced within moments in a busy game, and
an admin's direct edit of a post (the only change no version sees) shows within that time.
Every part a page shows is asked of the cache in one round trip (`page_parts`), and a part
is stored with its indentation folded (`compact`): made once, sent on every read.
"""

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from games.selectors import HISTORY_SHOWN, vote_history
from games.selectors.game import game_setup
from games.selectors.live import shared_version

FRESH_SECONDS = 120
# The game page's panel slots whose panels are the reader's alone (selectors.game.GamePage).
OWN_SLOTS = ("post_head", "player_note", "ignore")
CACHE = "pages"  # settings.CACHES: apart from the sessions and the engine states


def _key(part: str, page, *extra, versioned=True) -> str:
    game = page.game
    names = repr(sorted(page.names.items()))
    version = shared_version(game, page.posts.last or 0) if versioned else None
    seen = repr((version, names, *extra))
    return _game_key(game, part, timezone.get_current_timezone_name(), seen)


def _game_key(game, part: str, *parts) -> str:
    # The game's creation too: SQLite may give a deleted game's id to the next one. The
    # language for every part: a German reader never gets an English part, nor the reverse;
    # the posts' site words are worded for the reader too (games/narration/said.py).
    seen = repr((game.created_at.isoformat(), translation.get_language(), *parts))
    return f"game-page:{game.pk}:{part}:{hashlib.sha256(seen.encode()).hexdigest()[:24]}"


@dataclass(frozen=True)
class Cached:
    """A part the cache may hold: its key, and how to make it when it does not."""

    key: str
    make: Callable[[], str]


def page_parts(page) -> dict[str, str | None]:
    """The game page's shared parts, by name (posts, history, players, filter, setup,
    count): each part's HTML, "" for a part with nothing to show, or None where the page
    makes its own. One cache round trip for them all, and one more to store those made."""
    wanted = {
        "posts": posts_html(page),
        "history": history_html(page),
        "players": players_html(page),
        "filter": filter_html(page),
        "setup": setup_html(page),
        "count": count_html(page),
    }
    cache = caches[CACHE]
    found = cache.get_many([part.key for part in wanted.values() if isinstance(part, Cached)])
    made, out = {}, {}
    for name, part in wanted.items():
        if not isinstance(part, Cached):
            out[name] = part
            continue
        html = found.get(part.key)
        if html is None:
            html = made[part.key] = compact(str(part.make()))
        out[name] = mark_safe(html)  # noqa: S308 - our own templates' output, escaped when made
    if made:
        cache.set_many(made, FRESH_SECONDS)
    return out


# Whitespace that holds a line break, outside <pre> and <textarea> (where it is the text):
# one line break says the same to a browser as the templates' indentation.
_KEPT = re.compile(r"(<pre\b.*?</pre>|<textarea\b.*?</textarea>)", re.DOTALL | re.IGNORECASE)
_FOLD = re.compile(r"\s*\n\s*")


def compact(html: str) -> str:
    """`html` with every run of whitespace that holds a line break folded to one line
    break, except inside <pre> and <textarea>."""
    parts = _KEPT.split(html)
    # split() with one group: the kept blocks are at the odd places.
    return "".join(p if i % 2 else _FOLD.sub("\n", p) for i, p in enumerate(parts))


def posts_html(page) -> Cached | None:
    """The posts of `page` (a deferred selectors.GamePage) as HTML, cached when every
    reader alike would see them; None when the page must make its own (the rows are then
    read)."""
    posts = page.posts
    if page.only or posts.number is None or _own(page):
        posts.loaded()
        return None

    def make():  # the page links above and below the posts too (games/_thread.html)
        posts.loaded()
        return render_to_string("games/_thread.html", {"page": page, "game": page.game})

    # Not the game's version: a page's posts change only with its own last post (a vote,
    # a deadline or a post on a later page leaves an earlier page as it was), and its
    # links with the thread's number of pages.
    key = _key(
        "posts", page, posts.number, posts.pages, posts.last_shown, page.can_post,
        page.is_moderator, page.game.status, page.game.posts_hidden, page.game.posts_edited,
        versioned=False,
    )  # fmt: skip
    return Cached(key, make)


def _own(page) -> bool:
    """Whether `page` shows its reader panels of their own on the posts or the players."""
    return any(page.panels[slot] for slot in OWN_SLOTS)


def history_html(page) -> Cached | str:
    """The latest day's vote history as HTML ("" before Day 1 and in an open game)."""
    game = page.game
    if game.status == game.Status.OPEN:
        return ""

    def make():
        history = vote_history(game, page.names, last=HISTORY_SHOWN)
        if history is None:
            return ""
        return render_to_string("games/_vote_history.html", {"history": history, "game": game})

    return Cached(_key("history", page), make)


def players_html(page) -> Cached | None:
    """The player list as HTML, cached for readers without panels of their own; the
    reader's own seat ("you"), what the capabilities show beside each player (absences) and
    the seats to fill (which the desk may change before the start) are part of its key."""
    if _own(page):
        return None
    viewer = page.viewer_seat.pk if page.viewer_seat else None
    shown = [(p.template, p.data) for p in page.panels["player"]]
    return Cached(
        _key("players", page, viewer, shown, page.game.seats_count),
        lambda: render_to_string("games/_players.html", {"page": page, "game": page.game}),
    )


def filter_html(page) -> Cached | None:
    """The thread's filter form as HTML, cached while no filter is on."""
    if page.only or page.game.status == page.game.Status.OPEN:
        return None
    return Cached(
        _key("filter", page, page.days, versioned=False),  # the players and the days
        lambda: render_to_string("games/_thread_filter.html", {"page": page, "game": page.game}),
    )


def setup_html(page) -> Cached | str:
    """The setup everyone sees (W-23) as HTML ("" when the game keeps it secret): fixed
    once the game starts, so its key is the game's alone."""
    game = page.game
    if game.status == game.Status.OPEN:
        return ""

    def make():
        setup = game_setup(game)
        return render_to_string("games/_setup.html", {"setup": setup}) if setup else ""

    return Cached(_game_key(game, "setup"), make)


def count_html(page) -> Cached | None:
    """The day's public vote count as HTML (None when there is none: at night, before and
    after the game)."""
    if page.count is None:
        return None
    return Cached(
        _key("count", page),
        lambda: render_to_string(
            "games/_vote_count.html", {"count": page.count, "names": page.names, "legend": True}
        ),
    )
