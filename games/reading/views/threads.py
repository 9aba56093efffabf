"""The read state every thread page keeps, heard through the core's events.

A thread page (the public thread, a room, the afterlife, a room read from the desk or the
afterlife) announces THREAD_OPENED first: opened without a page (no query string) by a
reader who has read the thread before, it lands on the page of their first unread post, at
its anchor (#pN). Once the page is made (THREAD_SHOWN) the viewer's mark moves to its last
post (one statement, forward only) and, on the game page, their visit is recorded, which
its "since you last read" link starts after. The access helper has already decided that
the viewer may read the thread.

What the page showed them is kept on the request (`reading_of`) for the panels (panels.py):
the read bar, "N new" beside the other threads, the since link.
"""

from dataclasses import dataclass, field

from django.contrib.messages import get_messages
from django.shortcuts import redirect
from django.urls import reverse

from ..selectors.news import ReadBar, landing, read_bar, thread_news
from ..selectors.readable import Readable, readable
from ..services.read_state import game_visit_record, read_mark_forward

# The game page's "since you last read": since the visit before that page (never an index).
SINCE_PREVIOUS = "visit=previous"
PUBLIC = "public"  # the public thread (selectors.threads.PUBLIC)
_ON_REQUEST = "_reading"  # the request's attribute holding the Reading of its thread


@dataclass
class Reading:
    """A thread page's read state: what the viewer had read when they asked for it."""

    game: object
    key: str
    news: dict  # thread key -> ThreadNews, every thread of the game with posts
    bar: ReadBar | None = None
    since_url: str = ""  # the game page: "since you last read", from the previous visit
    by_ref: dict = field(default_factory=dict)

    def thread_last(self) -> int:
        """The thread's last post number, as the news read it (0: no post yet)."""
        news = self.news.get(self.key)
        return news.last if news is not None else 0

    def seen(self, user, posts, can) -> None:
        """The viewer was shown `posts` (a ThreadPage): the bar for the page, and their mark
        moves to its last post. A filtered view (one seat's posts) moves nothing."""
        self.bar = read_bar(self.game, self.key, self.news, can)
        self.by_ref = self.bar.by_ref
        shown = posts.last_shown if posts is not None and posts.number is not None else None
        if shown is not None:
            # One statement, and none when the mark read with the news is already there
            # (a page read again, an earlier page).
            news = self.news.get(self.key)
            read_mark_forward(
                user=user,
                game=self.game,
                thread=self.key,
                number=shown,
                known=news.read if news is not None else None,
            )


def reading_of(request) -> Reading | None:
    """The read state of the thread `request` showed (None: no thread, or no reader)."""
    return getattr(request, _ON_REQUEST, None) if request is not None else None


def thread_opened(opening, *, request, game, thread, **_):
    """THREAD_OPENED: the read state of thread `thread` for a signed-in viewer (nothing for
    anyone else), one query for every thread of the game; the thread's last number for
    the page. Opened without a page by a viewer who has read the thread before, it lands
    on the page of their first unread post (or of the last post, all read), at its anchor.
    `len` of the messages reads them without using them up."""
    if not request.user.is_authenticated:
        return opening
    news = thread_news(game, request.user, visit=thread == PUBLIC)
    reading = Reading(game, thread, news)
    setattr(request, _ON_REQUEST, reading)
    opening.last = reading.thread_last()
    # Not after a form that left a message (a vote, "Mark all read"): the page shows it at
    # the top, where form-feedback.js gives it the focus (a #pN would take it away).
    if request.method == "GET" and not request.GET and not len(get_messages(request)):
        found = landing(news.get(thread))
        if found is not None:
            page, number = found
            opening.redirect = redirect(f"{request.path}?page={page}#p{number}")
    return opening


def thread_shown(*, request, game, thread, posts, seat=None, state=None, whole_game=False, **_):
    """THREAD_SHOWN: the mark moves to the page's last post. The game page also records the
    visit that "since you last read" starts after (the page's link starts after the visit
    before this one)."""
    reading = reading_of(request)
    if reading is None or reading.key != thread:  # not opened (a refused post's page)
        return
    if whole_game:
        can = Readable(None, whole_game=True)
    else:
        can = readable(game, request.user, seat=seat, state=state)
    reading.seen(request.user, posts, can)
    if thread != PUBLIC:
        return
    previous = reading.news.visit
    if not reading.news.visit_current:  # else its statement would write nothing
        game_visit_record(user=request.user, game=game)
    if previous is not None:
        # Names no event: the visit row keeps where the previous visit ended (issue 25).
        reading.since_url = f"{reverse('game_since', args=[game.pk])}?{SINCE_PREVIOUS}"


def posts_appended(*, user, game, thread, upto, **_):
    """POSTS_APPENDED: appended to the open page by the live refresh, so read: the next
    visit does not call them new."""
    read_mark_forward(user=user, game=game, thread=thread, number=upto)
