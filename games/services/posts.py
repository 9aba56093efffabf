"""Every post: a player's in the public thread or a room, the moderator's notices, and
the system posts that announce the engine's public events.

A post's body is stored as typed and as sanitised HTML (games/markup.py); numbers run
per thread. The body is checked and rendered before the game row is locked: its cost is
its own, never paid while other writers to the game wait.
"""

from typing import NamedTuple

from django.db import transaction
from django.db.models import Case, F, Max, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils.translation import gettext, ngettext

from games.engine import GameRuleError

from ..mapping import engine_state
from ..markup import MAX_DEPTH, MAX_LENGTH, TooDeep, render_markdown, trim_marks
from ..models import Game, GameEvent, Post, Seat
from ..narration.summaries import headline
from ..permissions import rooms_for
from ..queue import POST_BODY, POST_CREATED, START_POST, emit, refine
from .base import game_locked, seat_of
from .summaries import summary_meaning, summary_needed

PUBLIC = "public"  # the public thread's key; rooms have their own (permissions.rooms_for)
# Public engine events that become system posts in the public thread.
# W-69a / W-72b: a stalemate is announced with its cause.
THREAD_EVENTS = ("phase", "lynch", "death", "survival", "public", "stalemate", "game_over")


class PostBody(NamedTuple):
    """A post's text as stored and its HTML."""

    text: str
    html: str
    mentioned: tuple = ()  # the player keys its `@name`s link (refined by POST_BODY)


def clean_body(body: str) -> str:
    """A post's text, stripped, with each letter's pile of combining marks cut to a few
    (markup.trim_marks); GameRuleError when it is empty or too long."""
    body = trim_marks(body.strip())
    if not body:
        raise GameRuleError(gettext("write something first"))
    if len(body) > MAX_LENGTH:
        raise GameRuleError(
            ngettext(
                "a post can be at most %(count)s character",
                "a post can be at most %(count)s characters",
                MAX_LENGTH,
            )
            % {"count": f"{MAX_LENGTH:,}"}
        )
    return body


def post_body(body: str) -> PostBody:
    """A post's text cleaned and rendered, before any lock is taken; GameRuleError when
    it cannot be accepted (empty, too long, quotes and lists nested too deep)."""
    body = clean_body(body)
    try:
        return PostBody(body, render_markdown(body))
    except TooDeep:
        raise GameRuleError(
            ngettext(
                "a post can nest quotes and lists at most %(count)s deep",
                "a post can nest quotes and lists at most %(count)s deep",
                MAX_DEPTH,
            )
            % {"count": MAX_DEPTH}
        ) from None


def post_number_next(game: Game, thread: str = PUBLIC) -> int:
    top = Post.objects.filter(game=game, thread=thread).aggregate(n=Max("number"))["n"]
    return (top or 0) + 1


def _number_after_last(game: Game, k: int, thread: str = PUBLIC):
    """The thread's k-th number after its last, worked out by the INSERT itself (no MAX()
    statement before it). Every row of one INSERT sees the thread as it was before the
    statement, and the game row is locked, so the numbers run on without a gap."""
    last = Post.objects.filter(game=game, thread=thread).order_by("-number").values("number")
    return Coalesce(Subquery(last[:1]), 0) + k


def _player_post(game, seat, user, thread, body: PostBody, reply_to=None) -> Post:
    return Post.objects.create(
        game=game,
        thread=thread,
        number=post_number_next(game, thread),
        kind=Post.Kind.PLAYER,
        seat=seat,
        author=user,
        body=body.text,
        body_html=body.html,
        reply_to=reply_to,
        phase=game.phase,
    )


@transaction.atomic
def post_create(*, game: Game, user, body: str, reply_to: int | None = None) -> Post:
    """A player's post in the public thread: living players, by day."""
    body = refine(POST_BODY, post_body(body), game=game)  # before the lock (the docstring)
    game = game_locked(game)
    seat = seat_of(game, user)
    parent = _public_post_allowed(game, seat, reply_to)
    post = _player_post(game, seat, user, PUBLIC, body, parent)
    # The desk's "last post" and the prod rule's clock (services/prods.py), and the player
    # list's counts (issue 31; every right-hand side reads the row as it was): one UPDATE.
    Seat.objects.filter(pk=seat.pk).update(
        last_post_at=post.created_at,
        posts_count=F("posts_count") + 1,
        posts_day_count=Case(
            When(posts_day=post.phase, then=F("posts_day_count") + 1), default=Value(1)
        ),
        posts_day=post.phase,
    )
    emit(POST_CREATED, game=game, post=post, body=body)
    return post


def _public_post_allowed(game: Game, seat: Seat, reply_to: int | None) -> Post | None:
    """The post `seat` replies to (None for none) when it may post in the public thread
    now; GameRuleError, in the player's words, when it may not."""
    if game.status == Game.Status.OPEN:
        raise GameRuleError(gettext("the thread opens when the game starts"))
    if game.status == Game.Status.RUNNING:
        state = engine_state(game)
        if not state.seat(seat.name).living:
            raise GameRuleError(gettext("the dead cannot post in the public thread"))
        if state.night:
            raise GameRuleError(gettext("nobody posts in the public thread at night"))
    if reply_to is None:
        return None
    parent = Post.objects.filter(game=game, thread=PUBLIC, number=reply_to).first()
    if parent is None:
        raise GameRuleError(
            gettext("there is no post #%(number)s to reply to") % {"number": reply_to}
        )
    return parent


def _room_post_allowed(game: Game, user, room: str) -> Seat:
    # A non-player gets the same answer as a non-member.
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None or room not in rooms_for(game, seat, engine_state(game)):
        raise GameRuleError(gettext("you cannot post in that room"))
    return seat


def post_preview(*, game: Game, user, body: str, reply_to: int | None = None, room=None):
    """The post `user` would write (in the public thread, or in `room`) as it would be
    stored: its PostBody, through the same rules, sanitiser and mentions (POST_BODY) as
    post_create and room_post, with the same refusals (GameRuleError). Nothing is written
    and no lock is taken: a preview promises nothing about the moment it is posted."""
    body = refine(POST_BODY, post_body(body), game=game)
    if room is not None:
        _room_post_allowed(game, user, room)
    else:
        _public_post_allowed(game, seat_of(game, user), reply_to)
    return body


@transaction.atomic
def room_post(*, game: Game, user, room: str, body: str) -> Post:
    """A post in a meeting's thread or the afterlife, by a seat that may use it now."""
    body = refine(POST_BODY, post_body(body), game=game)  # before the lock (the docstring)
    game = game_locked(game)
    seat = _room_post_allowed(game, user, room)  # found under the lock
    post = _player_post(game, seat, user, room, body)
    emit(POST_CREATED, game=game, post=post, body=body)
    return post


def moderator_notice_create(game: Game, by, body: str | PostBody | dict) -> Post:
    """A moderator's post in the public thread saying what they did to the game (a pause,
    an extension) or wrote (an announcement). Call it with the game row locked. A text of
    the moderator's own comes as a PostBody, rendered before the lock (`post_body`), and is
    kept as written; the site's sentence for their act comes as its meaning
    (narration.said.meaning: a kind and its arguments), worded when read, for each reader."""
    words = {}
    if isinstance(body, dict):
        words, body = body, PostBody("", "")
    elif not isinstance(body, PostBody):
        body = post_body(body)
    return Post.objects.create(
        game=game,
        thread=PUBLIC,
        number=post_number_next(game),
        kind=Post.Kind.MODERATOR,
        author=by,
        body=body.text,
        body_html=body.html,
        words=words,
        phase=game.phase,
    )


def clock_notice_create(game: Game, words: dict) -> Post:
    """A system post in the public thread with words of its own (no event, no author): the
    clock's, not the moderator's, so it is no moderator act (W-72's log). `words` is its
    meaning (narration.said.meaning), worded when read in each reader's language and zone.
    Call it with the game row locked."""
    return Post.objects.create(
        game=game,
        thread=PUBLIC,
        number=post_number_next(game),
        kind=Post.Kind.SYSTEM,
        words=words,
        phase=game.phase,
    )


def system_posts_create(game: Game, rows) -> None:
    """The public thread's post for the public events among `rows` (GameEvent: one
    advance's, in order): one post whatever their number, as a host writes it. An event
    alone is its own post; several, or a day that ends (with its final vote count, the
    lynch or "no lynch", then the night that begins), make a summary whose meaning is kept
    in the post (services/summaries.py) and worded when read. Call it with the game row
    locked."""
    rows = [r for r in rows if r.audience == GameEvent.Audience.PUBLIC and r.kind in THREAD_EVENTS]
    if not rows:
        return
    post = Post(
        game=game,
        thread=PUBLIC,
        number=_number_after_last(game, 1),  # worked out by the INSERT
        kind=Post.Kind.SYSTEM,
        event=rows[headline([r.kind for r in rows])],
        phase=game.phase or rows[0].phase,
    )
    if summary_needed(game, rows):
        post.words = summary_meaning(game, rows)
    if rows[0].index == 0:  # the start's post: a capability may add to it (the seal)
        post = refine(START_POST, post, game=game, rows=rows)
    Post.objects.bulk_create([post])
