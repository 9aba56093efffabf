"""The game page kept current while it is open (static/js/live.js): the version of what
the page shows, read in one query so an unchanged poll costs next to nothing, and when
it has changed the fragments to swap in (new posts, the vote count, the deadline).

The version is what the page shows that can change while it is open: the game's status,
phase, public changes (a public event such as a vote, a public post hidden or shown
again), clock, the public thread's last post number, and who is looking (the vote panel
is the viewer's own). It is printed (the ETag, `data-live-version`) and answers 200 or
304 to anyone, so it is made only of what every viewer sees: never the count of inputs,
which night actions, pack votes, the dead's acts and secret day powers move too, nor a
hide in a room (issue 25; tests/games/test_noninterference.py).
"""

import hashlib
from dataclasses import dataclass, field

from django.db.models import OuterRef, Subquery

from ..models import Game, Post
from .forum import markers_appended, recently_edited
from .game import GamePage, ThreadAsk, game_page, game_panels
from .threads import POSTS_PER_PAGE, PUBLIC, ThreadPage, hidden_in_thread, post_url

VERSION_FIELDS = (
    "status", "phase", "public_changes", "deadline_at", "paused_at", "midnight_at",
)  # fmt: skip


def _tag(values, last, user) -> str:
    return _digest(values, last, user.pk if user.is_authenticated else None)


def _digest(values, last, who) -> str:
    return hashlib.sha256(repr((*values, last, who)).encode()).hexdigest()[:20]


def shared_version(game: Game, last: int) -> str:
    """The version of what every reader of the game sees alike (no viewer's own panel):
    the key of the game page's cached parts (views/fragments.py)."""
    return _digest([getattr(game, f) for f in VERSION_FIELDS], last, None)


@dataclass
class LiveVersion:
    tag: str  # the ETag's value
    last: int  # the public thread's last post number


def live_version(game_id, user) -> LiveVersion | None:
    """The game's version for `user`, or None for no such game: one query (the game row's
    columns and the thread's last number, read on the post-number index)."""
    last = Post.objects.filter(game=OuterRef("pk"), thread=PUBLIC).order_by("-number")
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(last=Subquery(last.values("number")[:1]))
        .values_list(*VERSION_FIELDS, "last")
        .first()
    )
    if row is None:
        return None
    return LiveVersion(_tag(row[:-1], row[-1] or 0, user), row[-1] or 0)


def page_version(game: Game, posts: ThreadPage, user) -> str:
    """The version of a game page as rendered, from what it already read: the same tag
    live_version gives while nothing changes. A filtered page does not read the thread's
    last number: its version is "", and its first poll tells it the game's."""
    if posts.last is None:
        return ""
    return _tag([getattr(game, f) for f in VERSION_FIELDS], posts.last, user)


@dataclass
class LiveState:
    """What the page hands the script: where to poll, the version, the last post it has,
    and whether new posts are appended (the whole thread's last page) or announced."""

    version: str
    after: int | None  # None: not known (a filtered page), the first poll tells it
    append: bool


def live_state(game: Game, page: GamePage, user) -> LiveState:
    posts = page.posts
    on_last = not page.only and posts.number is not None and posts.number == posts.pages
    return LiveState(page_version(game, posts, user), posts.last, on_last)


@dataclass
class LiveUpdate:
    page: GamePage  # posts: the new posts to append (none when announced instead)
    version: LiveVersion
    new: int  # how many posts the reader has not seen
    first_url: str  # the permalink of the first of them
    last: int  # the last post number the reader has now (appended or announced)
    hidden: list  # (number, words) of each post of the thread the moderator hid
    edited: list = field(default_factory=list)  # (number, HTML) of the posts edited lately


def live_update(game: Game, user, *, after: int | None, version: LiveVersion, append: bool):
    """What changed since the page was rendered: the game page as `user` sees it (the
    same permissions: the public thread, the viewer's own vote panel and notes), with the
    posts after `after` when they are appended and few enough to append. Without `after`
    (a filtered page's first poll) nothing is new: the answer is the baseline."""
    if after is None:
        after = version.last
    new = max(version.last - after, 0)
    # Announced rather than appended: the posts after the last are none.
    since = after if append and new <= POSTS_PER_PAGE else version.last
    # Deferred: the answer shows no vote history nor setup (_live.html), so neither is made.
    page = game_page(game, user, ThreadAsk(since=since), deferred=True, last=version.last)
    game_panels(page, user)
    if page.posts.rows and game.status != Game.Status.OPEN:
        page.posts.lead = markers_appended(game, page.posts.rows, since, page.names)
    # A post written since the version was read is appended too: the script goes on from it.
    last = max([version.last] + [int(row["number"]) for row in page.posts.rows])
    # A game with no post ever hidden (nearly all) asks nothing more.
    hidden = hidden_in_thread(game, PUBLIC) if game.public_changes and game.posts_hidden else []
    first = post_url(game.pk, after + 1) if new else ""
    # Issue 31: a post edited within its short window comes with its new text; a game with
    # no edit ever (nearly all) asks nothing more.
    edited = recently_edited(game) if game.public_changes and game.posts_edited else []
    return LiveUpdate(page, version, new, first, last, hidden, edited)
