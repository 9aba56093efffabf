"""Read state: a viewer's mark in a thread moves forward as they read (one
statement a page view, never back), "Mark all read", and the visit that "since you last
read" starts after.

The views call these after their access helper: a mark is only ever written for a thread
the viewer may read (the page they were shown), and "Mark all read" asks the read-state
selectors (games/reading/selectors/, the permissions' and rooms' rules) which threads
those are.
"""

from django.db import connection
from django.utils import timezone

from games.models import Game, GameEvent, GameVisit, ReadMark

from ..selectors.news import VISIT_TOUCH, thread_news
from ..selectors.readable import Readable, readable


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
    you last read" link starts after (selectors/since.py visit_boundary): the link names no
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
