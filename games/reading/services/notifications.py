"""Notifications: a mention (`@name`) or a quote of a member's post, a wagon one vote
from a lynch, a vote landing on a member; in-site (the header's count, /notifications/)
and by email for those who opted in (User.email_mentions, User.wagon_alerts).

Who may be told: only a member who can read the thread the post is in, now: the public
thread's readers are the seated players, a room's (a meeting, the afterlife) its members
(permissions.rooms_for), so a mention in a hidden room of someone outside it notifies
nobody. Never the author; one notification per post and person (`key`), one wagon alert
per target and day. Day votes are public, so the wagon alerts say nothing more than the
vote count does.

A post's notifications are written in its own transaction (`post_notify`, called with
the game row locked) and their emails rendered and queued by a task after it commits
(`post_emails_send`, no lock); a vote's alerts are worked out from the engine state in the
vote's transaction but written by the `vote_alerts` task after it commits, so a day vote
stays five statements.

No email is rendered under the game row's lock, which every vote and post waits on. The
`vote_alerts` task decides under the lock (who is told what, less the alerts already
written), lets it go to render the emails, then takes it again, briefly, to write in one
transaction: the check for alerts another vote's task wrote meanwhile (exact under the
lock, which `post_notify` also holds to move the same unread counts), the alerts (their key
keeps each to once) and their outbox rows (games/mail.py `send_after_commit`). An alert
found written meanwhile drops its email; a day that ended meanwhile writes nothing.
"""

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games.mail import send_after_commit
from games.mapping import engine_state
from games.models import Game, GameEvent, Notification, Post, Seat
from games.permissions import rooms_for
from games.queue import after_commit, member_told
from games.selectors.seats import display_names, seats_public
from games.selectors.threads import PUBLIC
from games.selectors.votes import vote_count
from games.services.inbox import (
    notification_message,
    notification_new,
    notifications_unwritten,
    notifications_write,
    unread_add,
)

from ..mentions import mentioned_keys, mentions_link, quoted_numbers
from ..narration.notifications import mention_words, quote_words, voted_words, wagon_words
from ..selectors.mentions import mention_key, mention_targets

POST_KINDS = (Notification.Kind.MENTION, Notification.Kind.QUOTE)


# --- mentions and quotes ---------------------------------------------------------------
def mentions_apply(game: Game, body):
    """A post's body (services.posts.PostBody) with each `@name` of a player of `game`
    linked, and those players' keys in `body.mentioned`. Before the lock, like rendering:
    no query when the text names nobody, else one."""
    keys = mentioned_keys(body.text)
    if not keys:
        return body
    html, found = mentions_link(body.html, mention_targets(game, keys))
    return body._replace(html=html, mentioned=tuple(found))


def _readers(game: Game, thread: str) -> dict[int, Seat]:
    """The seats whose occupants may read `thread` now, by user id."""
    seats = Seat.objects.filter(game=game).select_related("user")
    if thread == PUBLIC:
        return {s.user_id: s for s in seats}
    state = engine_state(game)
    return {s.user_id: s for s in seats if thread in rooms_for(game, s, state)}


def post_notify(*, game: Game, post: Post, body) -> int:
    """Tell the players `post` mentions or quotes (its reply's post, and the posts its
    quote heads name, in the same thread) who may read its thread; returns how many were
    told. Call it with the game row locked, after the post is stored; no query for a
    post that mentions and quotes nobody."""
    mentioned = set(getattr(body, "mentioned", ()))
    numbers = set(quoted_numbers(body.text))
    if post.reply_to is not None:
        numbers.add(post.reply_to.number)
    if not mentioned and not numbers:
        return 0
    readers = _readers(game, post.thread)
    quoted = set()
    if numbers:
        quoted = set(
            Post.objects.filter(
                game=game, thread=post.thread, number__in=numbers, kind=Post.Kind.PLAYER
            ).values_list("author_id", flat=True)
        )
    author = post.seat.shown_name if post.seat_id else post.author.player_name
    rows = []
    for user_id, seat in readers.items():
        if user_id == post.author_id:
            continue
        if user_id in quoted:
            words = quote_words(author, post.thread, game.ruleset, post.number)
            kind = Notification.Kind.QUOTE
        elif mention_key(seat) in mentioned:
            words = mention_words(author, post.thread, game.ruleset, post.number)
            kind = Notification.Kind.MENTION
        else:
            continue
        rows.append(
            notification_new(
                user_id=user_id, game=game, kind=kind, post=post, key=f"post-{post.pk}", words=words
            )
        )
    if rows:
        Notification.objects.bulk_create(rows)
        unread_add(r.user_id for r in rows)
        for r in rows:
            member_told(user_id=r.user_id, game=game, kind="mention")
        if any(readers[r.user_id].user.email_mentions for r in rows):
            after_commit("post_notification_emails", post.pk)
    return len(rows)


def post_emails_send(*, post_id: int) -> int:
    """The emails of a post's mentions and quotes, to those who want them."""
    rows = Notification.objects.filter(
        post_id=post_id, kind__in=POST_KINDS, user__email_mentions=True
    ).select_related("user", "game", "post")
    messages = [notification_message(n, "mentions") for n in rows]
    send_after_commit(messages)
    return len(messages)


# --- the wagon alert ---------------------------------------------------------------------
def vote_alerts_queue(game: Game, phase: str, state, rows) -> None:
    """After an input: when it cast a day vote and the day goes on, queue the alerts it
    may call for (`vote_alerts_send`) with what they need from `state`. No statement."""
    if state.phase != phase or state.night or state.over:
        return
    votes = [
        (r.index, r.data.get("voter"), r.data.get("target"))
        for r in rows
        if r.kind == "vote" and r.audience == GameEvent.Audience.PUBLIC
    ]
    if not votes:
        return
    wagons = [target for target, _voters, left in vote_count(state).rows if left == 1]
    living = [s.name for s in state.seats if s.living]
    key = _asked_key(game)

    def queue_if_asked():  # after the commit, so the vote's own statements stay as they were
        if _alerts_asked(game.pk, key):
            after_commit("vote_alerts", game.pk, phase, votes, wagons, living)

    transaction.on_commit(queue_if_asked)


ASKED_SECONDS = 60  # a member who turns the alerts on is served within a minute


def _asked_key(game: Game) -> str:
    # The seed keeps a reused primary key (a database reset) from reading another game's.
    return f"alerts-asked:{game.pk}:{game.seed}"


def _alerts_asked(game_id: int, key: str) -> bool:
    """Whether any player of the game or its host asked for alerts (User.wagon_alerts):
    read at most once a minute a game, so that where nobody did (most games) a day vote
    queues no task for the workers."""
    asked = cache.get(key)
    if asked is None:
        wanted = User.objects.filter(wagon_alerts=True)
        asked = wanted.filter(Q(seats__game_id=game_id) | Q(hosted_games=game_id)).exists()
        cache.set(key, asked, ASKED_SECONDS)
    return asked


def alerts_asked_forget(game: Game) -> None:
    """A seat changed hands: whether anyone asked is read again at the next vote."""
    cache.delete(_asked_key(game))


def vote_alerts_send(*, game_id: int, phase: str, votes, wagons, living) -> int:
    """The alerts of a day vote, for the members who asked (User.wagon_alerts): each wagon
    one vote from a lynch, to the living players and the moderator, once per target and
    day; and each vote to the player it lands on. In-site, and by email. Nothing once the
    day is over. Returns how many were written. Rendered without the game's lock (the
    module's docstring)."""
    # Most members never ask: then one query, and the game row (every vote's lock) is not
    # taken. Whoever asked is served under that lock, so two votes' tasks tell them once.
    asked = User.objects.filter(wagon_alerts=True)
    if not asked.filter(Q(seats__game_id=game_id) | Q(hosted_games=game_id)).exists():
        return 0
    with transaction.atomic():
        game = _day_locked(game_id, phase)
        if game is None:
            return 0
        seats = seats_public(game)
        names = display_names(seats)
        by_name = {s.name: s for s in seats}
        told = {s.user_id: s.user for s in seats if s.name in living and s.user.wagon_alerts}
        host = User.objects.filter(pk=game.host_id, wagon_alerts=True).first()
        if host is not None:
            told[host.pk] = host
        rows = []
        for target in wagons:
            seat = by_name.get(target)
            if seat is None:
                continue
            for user_id in told:
                you = seat.user_id == user_id
                words = wagon_words(names[target], phase, you=you)
                rows.append((user_id, Notification.Kind.WAGON, f"{phase}:{target}", words))
        for index, voter, target in votes:
            seat = by_name.get(target)
            if seat is None or voter == target or not seat.user.wagon_alerts:
                continue
            words = voted_words(names.get(voter, voter), phase)
            rows.append((seat.user_id, Notification.Kind.VOTED, f"vote-{index}", words))
        rows = notifications_unwritten(game, rows)  # another vote's task told: not rendered again
    if not rows:
        return 0
    users = {**told, **{s.user_id: s.user for s in seats}}
    emails = {
        (u, k, key): notification_message(
            notification_new(user=users[u], game=game, kind=k, key=key, words=w), "wagons"
        )
        for u, k, key, w in rows
    }
    with transaction.atomic():
        game = _day_locked(game_id, phase)
        if game is None:
            return 0
        # Under the lock the check for alerts written meanwhile is exact (notifications_write).
        new = notifications_write(game, rows, once=True)
        # The day's count, while it lasts.
        send_after_commit(
            [emails[(n.user_id, n.kind, n.key)] for n in new], expires_at=game.deadline_at
        )
        return len(new)


def _day_locked(game_id: int, phase: str) -> Game | None:
    """The game, its row locked, while `phase` (a day) is still on; else None."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.phase != phase or game.status != Game.Status.RUNNING:
        return None
    return game
