"""Read state and the daily digest (issue 15): a viewer's mark in a thread moves forward as
they read (one statement a page view, never back), "Mark all read", the visit that "since
you last read" starts after, and the digest sent once a day in each member's morning.

The views call these after their access helper: a mark is only ever written for a thread
the viewer may read (the page they were shown), and "Mark all read" asks the read-state
selector (games/selectors/reading.py, the permissions' and rooms' rules) which threads
those are.

The digest (User.email_digest, opt-in in the profile) goes out from the `email` queue's
beat entry (`tasks.digest_sweep`): each member whose local time has reached DIGEST_HOUR
and who has had no digest since that morning is claimed by one conditional UPDATE of
User.digest_sent_at (the value read must still be there), so two workers, or a sweep run
twice, send it once. Its content is the "since you last read" of each of their games
(selectors.reading.digest_pages), after the last digest: nothing their pages would not
show them.
"""

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User

from ..mail import absolute_url, message_build, send_after_commit
from ..models import Game, GameEvent, GameVisit, ReadMark
from ..narration import since as words
from ..selectors.reading import Readable, digest_pages, readable, thread_news

logger = logging.getLogger(__name__)

# The digest's hour in each member's own zone, and how long after it a late sweep (the
# beat was down) still sends that day's: after the window, the next morning's comes.
DIGEST_HOUR = 7
DIGEST_WINDOW = timedelta(hours=3)
DIGESTS_PER_SWEEP = 500
# A visit that shows nothing new moves its time at most this often: a page read again
# (a refresh, the live refresh's fallback) writes no row, and "last seen" is this exact.
VISIT_TOUCH = timedelta(minutes=1)


# --- read marks --------------------------------------------------------------------------------
def read_mark_forward(*, user, game: Game, thread: str, number: int, known=None) -> bool:
    """Move `user`'s mark in `thread` of `game` forward to post `number` (one they were
    shown): one INSERT … ON CONFLICT DO UPDATE … WHERE the mark is lower, so a mark never
    goes back, whatever order two page views end in. `known`, the mark the page read, spares
    the statement when it would change nothing. Returns whether it was sent."""
    if not user.is_authenticated or number <= 0 or (known is not None and number <= known):
        return False
    table = connection.ops.quote_name(ReadMark._meta.db_table)
    col = {f.name: connection.ops.quote_name(f.column) for f in ReadMark._meta.concrete_fields}
    key = f"{col['user']}, {col['game']}, {col['thread']}"
    sql = (
        f"INSERT INTO {table} ({key}, {col['last_number']}, {col['updated_at']}) "
        "VALUES (%s, %s, %s, %s, %s) "
        f"ON CONFLICT ({key}) DO UPDATE SET {col['last_number']} = excluded.{col['last_number']}, "
        f"{col['updated_at']} = excluded.{col['updated_at']} "
        f"WHERE {table}.{col['last_number']} < excluded.{col['last_number']}"
    )
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, game.pk, thread, int(number), now])
    return True


def read_marks_all(*, user, game: Game, keys=None, can: Readable | None = None) -> int:
    """Mark every thread of `game` that `user` may read (or those of `keys` among them)
    read to its last post: one query for the threads, then one forward-only upsert a thread
    with new posts. Returns how many threads it marked."""
    if not user.is_authenticated:
        return 0
    can = can or readable(game, user)
    marked = 0
    for key, news in thread_news(game, user).items():
        if can.can_read(key) and (keys is None or key in keys) and news.new:
            marked += read_mark_forward(
                user=user, game=game, thread=key, number=news.last, known=news.read
            )
    return marked


# --- visits ------------------------------------------------------------------------------------
def game_visit_record(*, user, game: Game, upto: int | None = None) -> None:
    """Note that `user` has seen `game` up to event `upto` (by default its last event now):
    one INSERT … ON CONFLICT DO UPDATE that moves the visit's event only forward, and its
    time when the event moved or VISIT_TOUCH has passed (else it writes nothing). The game
    page's visit (no `upto`) also keeps where the visit before it ended, which its "since
    you last read" link starts after (selectors.reading.visit_boundary): the link names no
    event, as an event's index counts hidden events too (issue 25)."""
    if not user.is_authenticated:
        return
    ops = connection.ops
    table = ops.quote_name(GameVisit._meta.db_table)
    col = {f.name: ops.quote_name(f.column) for f in GameVisit._meta.concrete_fields}
    params = [user.pk, game.pk]
    if upto is None:
        events = ops.quote_name(GameEvent._meta.db_table)
        index = ops.quote_name(GameEvent._meta.get_field("index").column)
        game_id = ops.quote_name(GameEvent._meta.get_field("game").column)
        value = f"COALESCE((SELECT MAX({index}) FROM {events} WHERE {game_id} = %s), -1)"
        params.append(game.pk)
    else:
        value = "%s"
        params.append(int(upto))
    now = timezone.now()
    touch = ops.adapt_datetimefield_value(now - VISIT_TOUCH)
    params += [ops.adapt_datetimefield_value(now), touch, touch]
    event, at, before = col["event_index"], col["visited_at"], col["previous_index"]
    moved = f"excluded.{event} > {table}.{event} OR {table}.{at} < %s"
    # The game page's visit: the previous one ended where this one starts (its time is
    # not touched for that alone).
    keep = "" if upto is not None else f", {before} = {table}.{event}"
    kept = "" if upto is not None else f" OR {table}.{before} <> {table}.{event}"
    sql = (
        f"INSERT INTO {table} ({col['user']}, {col['game']}, {event}, {at}, {before}) "
        f"VALUES (%s, %s, {value}, %s, -1) "
        f"ON CONFLICT ({col['user']}, {col['game']}) DO UPDATE SET "
        f"{event} = CASE WHEN excluded.{event} > {table}.{event} THEN excluded.{event} "
        f"ELSE {table}.{event} END, "
        f"{at} = CASE WHEN {moved} THEN excluded.{at} ELSE {table}.{at} END{keep} "
        f"WHERE {moved}{kept}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# --- the daily digest --------------------------------------------------------------------------
def digest_morning(now, zone):
    """The start of the digest's window today in `zone` (DIGEST_HOUR local), and whether
    `now` is inside it."""
    local = now.astimezone(zone)
    morning = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    return morning, morning <= local < morning + DIGEST_WINDOW


def digest_due(user, now) -> bool:
    """Whether `user`'s digest is due: their morning window has begun, and no digest went
    out since its start."""
    morning, inside = digest_morning(now, user.zoneinfo)
    return inside and (user.digest_sent_at is None or user.digest_sent_at < morning)


def _digest_claim(user_id: int, previous, now) -> bool:
    """Claim today's digest of one member: their digest_sent_at moves from the value read
    (`previous`) to `now`, or nothing happens when someone else moved it first. A conditional
    UPDATE: on PostgreSQL the second of two rival updates waits for the first and then finds
    its condition false; SQLite runs one write at a time."""
    rows = User.objects.filter(pk=user_id, email_digest=True, is_active=True)
    if previous is None:
        rows = rows.filter(digest_sent_at__isnull=True)
    else:
        rows = rows.filter(digest_sent_at=previous)
    return rows.update(digest_sent_at=now) == 1


def digest_send(*, user, now) -> bool:
    """Send `user`'s digest now if it is due and nobody else has: claimed in this
    transaction, built from selectors.reading.digest_pages (what happened after their
    previous digest, in games they play in), sent after commit. Nothing is sent when none
    of their games has anything to tell; the day counts as done all the same."""
    if not digest_due(user, now):
        return False
    previous = user.digest_sent_at
    with transaction.atomic():
        if not _digest_claim(user.pk, previous, now):
            return False
        pages = digest_pages(user, since=previous)
        if not pages:
            return False
        context = {
            "pages": pages,
            "site_url": absolute_url(""),
            "since_urls": {
                p.game.pk: absolute_url(reverse("game_since", args=[p.game.pk])) for p in pages
            },
            "subject": words.digest_subject(len(pages)),
            "previous": previous,
        }
        message = message_build(user, "digest", context, "digest")
        send_after_commit([message])
    return True


def digests_send(*, now=None) -> int:
    """The beat's digest sweep (`tasks.digest_sweep`): every member with the digest on
    whose morning has come and who plays in a running game (or one that ended since their
    last digest) gets one. Returns how many were sent."""
    now = now or timezone.now()
    recent = now - timedelta(days=2)
    users = (
        User.objects.filter(email_digest=True, is_active=True)
        .filter(Q(digest_sent_at__isnull=True) | Q(digest_sent_at__lt=now - timedelta(hours=12)))
        .filter(Q(seats__game__status=Game.Status.RUNNING) | Q(seats__game__finished_at__gt=recent))
        .distinct()
        .order_by("pk")
    )
    sent = 0
    for user in users[:DIGESTS_PER_SWEEP]:
        if not digest_due(user, now):
            continue
        try:
            sent += digest_send(user=user, now=now)
        except Exception:  # one member's digest never stops the others'
            logger.exception("could not build the digest of user %s", user.pk)
    return sent
