"""Coming back (issue 15): the read state every thread page keeps, "Mark all read", and
"since you last read".

A thread page (the public thread, a room, the afterlife, a room read from the desk or the
afterlife) asks `thread_reading` first: opened without a page (no query string), it lands
on the page of the viewer's first unread post, at its anchor (#pN); then, once the page is
made, `Reading.seen` moves the viewer's mark to its last post (one statement, forward
only). The access helper has already decided that the viewer may read the thread.
"""

from dataclasses import dataclass, field

from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.selectors.reading import (
    ReadBar,
    landing,
    read_bar,
    readable,
    since_page,
    thread_key,
    thread_news,
)
from games.services import reading as services

from .access import get_game_for_user
from .feedback import run_and_redirect

ALL = "all"  # "Mark everything read": every thread the viewer may read
# The game page's "since you last read": since the visit before that page (never an index).
SINCE_PREVIOUS = "visit=previous"
PUBLIC = "public"  # the public thread (selectors.threads.PUBLIC)


@dataclass
class Reading:
    """A thread page's read state: what the viewer had read when they asked for it."""

    game: object
    key: str
    news: dict  # thread key -> ThreadNews, every thread of the game with posts
    redirect: object = None  # where opening the thread lands, when it names no page
    bar: ReadBar | None = None
    since_url: str = ""  # the game page: "since you last read", from the previous visit
    by_ref: dict = field(default_factory=dict)

    def thread_last(self) -> int:
        """The thread's last post number, as the news read it (0: no post yet)."""
        news = self.news.get(self.key)
        return news.last if news is not None else 0

    def seen(self, request, posts, can) -> None:
        """The viewer was shown `posts` (a ThreadPage): the bar for the page, and their mark
        moves to its last post. A filtered view (one seat's posts) moves nothing."""
        self.bar = read_bar(self.game, self.key, self.news, can)
        self.by_ref = self.bar.by_ref
        shown = posts.last_shown if posts is not None and posts.number is not None else None
        if shown is not None:
            # One statement, and none when the mark read with the news is already there
            # (a page read again, an earlier page).
            news = self.news.get(self.key)
            services.read_mark_forward(
                user=request.user,
                game=self.game,
                thread=self.key,
                number=shown,
                known=news.read if news is not None else None,
            )


def thread_reading(request, game, key) -> Reading | None:
    """The read state of thread `key` for a signed-in viewer (None for anyone else): one
    query for every thread of the game. Its `redirect` is set when the page was opened
    without a page and the viewer has read the thread before: to the page of their first
    unread post (or of the last post, all read), at its anchor. `len` of the messages
    reads them without using them up."""
    if not request.user.is_authenticated:
        return None
    news = thread_news(game, request.user, visit=key == PUBLIC)
    reading = Reading(game, key, news)
    # Not after a form that left a message (a vote, "Mark all read"): the page shows it at
    # the top, where form-feedback.js gives it the focus (a #pN would take it away).
    if request.method == "GET" and not request.GET and not len(get_messages(request)):
        found = landing(news.get(key))
        if found is not None:
            page, number = found
            reading.redirect = redirect(f"{request.path}?page={page}#p{number}")
    return reading


def game_reading(request, game, page, reading: Reading | None) -> Reading | None:
    """The game page's read state, once `page` (selectors.GamePage) is made: the public
    thread's mark, the rooms' "N new", and the visit that "since you last read" starts
    after (the page's link starts after the visit before this one)."""
    if reading is None:
        return None
    can = readable(game, request.user, seat=page.viewer_seat)
    reading.seen(request, page.posts, can)
    previous = reading.news.visit
    services.game_visit_record(user=request.user, game=game)
    if previous is not None:
        # Names no event: the visit row keeps where the previous visit ended (issue 25).
        reading.since_url = f"{reverse('game_since', args=[game.pk])}?{SINCE_PREVIOUS}"
    return reading


@never_cache
@login_required
def since(request, game_id):
    """What changed in a game since the viewer last opened it (or, from the game page's
    link, since the visit before that page): built from the events their pages show them.
    Opening it counts as a visit."""
    game = get_game_for_user(request, game_id)
    previous = request.GET.get("visit") == "previous"
    page = since_page(game, request.user, previous=previous)
    services.game_visit_record(user=request.user, game=game, upto=page.latest_event)
    return render(request, "games/since.html", {"game": game, "page": page})


@never_cache
@require_POST
@login_required
def mark_read(request, game_id):
    """ "Mark all read": one thread (`thread`: "public", a room's id, "afterlife"), or every
    thread the viewer may read ("all"); a thread they may not read is refused like one
    that does not exist. Back to `next` (the page it was sent from)."""
    ref = request.POST.get("thread", "")

    def mark(game):
        can = readable(game, request.user)
        if ref == ALL:
            return services.read_marks_all(user=request.user, game=game, can=can)
        key = thread_key(game, request.user, ref, can)
        if key is None:
            raise GameRuleError("there is no such thread for you to read")
        return services.read_marks_all(user=request.user, game=game, keys={key}, can=can)

    return run_and_redirect(
        request,
        game_id,
        mark,
        "Everything is marked read." if ref == ALL else "The thread is marked read.",
        to="game_since" if ref == ALL else "game_detail",
    )


urlpatterns = [
    path("games/<id:game_id>/since/", since, name="game_since"),
    path("games/<id:game_id>/read/", mark_read, name="game_read"),
]
