"""Reading listens to posts and votes: `@name`s linked before a post is stored, its readers
told once it is, and the wagon alerts a day vote may call for; to the game page's seats
(the viewer's notes read with them); and to a seat changing hands (whether anyone asked
for alerts is read again)."""

from games import queue

from .selectors.notes import seats_annotated
from .services import members
from .services.notifications import (
    alerts_asked_forget,
    mentions_apply,
    post_notify,
    vote_alerts_queue,
)
from .views.threads import posts_appended, thread_opened, thread_shown


def mentions_linked(body, *, game, **_):
    return mentions_apply(game, body)


def post_readers_told(*, game, post, body, **_):
    post_notify(game=game, post=post, body=body)


def vote_alerts(*, game, phase, state, rows, **_):
    vote_alerts_queue(game, phase, state, rows)  # after commit: no statement here


def seats_with_notes(seats, *, user, **_):
    return seats_annotated(seats, user)  # in the seats' own query: no query of its own


def alerts_asked_again(*, game, **_):
    alerts_asked_forget(game)  # the newcomer may have asked


def connect():
    queue.connect(queue.POST_BODY, mentions_linked)
    queue.connect(queue.POST_CREATED, post_readers_told)
    queue.connect(queue.INPUT_APPLIED, vote_alerts)
    queue.connect(queue.GAME_PAGE_SEATS, seats_with_notes)
    queue.connect(queue.SEAT_CHANGED_HANDS, alerts_asked_again, on_commit=True)
    # Read state: a thread page lands on the first unread post, then its mark (and the game
    # page's visit) moves; the live refresh's appended posts are read too.
    queue.connect(queue.THREAD_OPENED, thread_opened)
    queue.connect(queue.THREAD_SHOWN, thread_shown)
    queue.connect(queue.POSTS_APPENDED, posts_appended)
    queue.connect(queue.MEMBER_ERASED, members.member_erased)
    queue.connect(queue.MEMBER_EXPORT, members.member_export_part)
