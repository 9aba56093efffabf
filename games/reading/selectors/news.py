"""Read state: how many posts of each thread are new to a viewer, and where
opening a thread lands.

Read state is one ReadMark row per viewer and thread (the last post number seen), so
"N new" is the thread's last number less the mark: posts are numbered 1, 2, 3… with no gap
(services/posts.py), and no post is ever counted. Every game's threads are read in one
query (`thread_news`), every listed game's in one more (`lobby_news`).
"""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from games.models import Game, GameEvent, GameVisit, Post, ReadMark, Seat
from games.selectors.rooms import room_key, room_ref
from games.selectors.threads import LAST, PUBLIC, post_page

from .readable import PUBLIC_ONLY, Readable, readable

# A visit that shows nothing new moves its time at most this often: a page read again
# (a refresh, the live refresh's fallback) writes no row, and "last seen" is this exact.
VISIT_TOUCH = timedelta(minutes=1)


# --- "N new" ---------------------------------------------------------------------------------
@dataclass
class ThreadNews:
    """One thread of a game as the viewer left it."""

    key: str
    last: int  # the thread's last post number
    read: int = 0  # the viewer's mark: the last post they have seen (0: none)

    @property
    def new(self) -> int:
        return max(self.last - self.read, 0)

    @property
    def first_unread(self) -> int | None:
        return self.read + 1 if self.read < self.last else None


class News(dict):
    """Thread key -> ThreadNews; `visit`: where the viewer's last visit ended (the last
    event index seen, -1 for no visit), when it was asked for and the game has posts;
    `visit_current`: whether recording a visit now would change nothing (it saw the game's
    last event, its time is fresh and the visit before it ended there too)."""

    visit: int | None = None
    visit_current: bool = False


def _q(name):
    return connection.ops.quote_name(name)


def _threads_sql(n_games: int, *, n_theirs: int | None, visit: bool) -> str:
    """The threads of some games, each with its last post number and the viewer's mark (and
    their last visit), read as a skip scan of the posts' (game, thread, number) index: a
    probe for each thread and one more per game, never a row per post (a GROUP BY would
    read every post). A recursive query that PostgreSQL and SQLite both run. With
    `n_theirs`, only the games among those ids (the ones the viewer sits in or hosts) or
    that the viewer has a mark in."""
    post, mark = _q(Post._meta.db_table), _q(ReadMark._meta.db_table)
    game, seen = _q(Game._meta.db_table), _q(GameVisit._meta.db_table)
    pk, gid, thread, number, uid = (
        _q("id"),
        _q("game_id"),
        _q("thread"),
        _q("number"),
        _q("user_id"),
    )

    def ids(n):
        return ", ".join(["%s"] * n)

    anchor = f"g.{pk} IN ({ids(n_games)})"
    if n_theirs is not None:
        anchor += (
            f" AND (g.{pk} IN ({ids(n_theirs)}) OR EXISTS "
            f"(SELECT 1 FROM {mark} m WHERE m.{uid} = %s AND m.{gid} = g.{pk}))"
        )
    extra = ""
    if visit:
        event, before = _q("event_index"), _q("previous_index")
        events, index = _q(GameEvent._meta.db_table), _q("index")
        extra = (
            f", (SELECT v.{event} FROM {seen} v WHERE v.{uid} = %s AND v.{gid} = t.g)"
            # read_state.game_visit_record's WHERE, negated: its statement would write nothing.
            f", (SELECT 1 FROM {seen} v WHERE v.{uid} = %s AND v.{gid} = t.g "
            f"AND v.{before} = v.{event} AND v.{_q('visited_at')} >= %s AND v.{event} >= "
            f"COALESCE((SELECT MAX(e.{index}) FROM {events} e WHERE e.{gid} = t.g), -1))"
        )
    first = f"(SELECT MIN(p.{thread}) FROM {post} p WHERE p.{gid} = g.{pk})"
    following = f"(SELECT MIN(p.{thread}) FROM {post} p WHERE p.{gid} = t.g AND p.{thread} > t.th)"
    last = f"(SELECT MAX(p.{number}) FROM {post} p WHERE p.{gid} = t.g AND p.{thread} = t.th)"
    read = (
        f"(SELECT m.{_q('last_number')} FROM {mark} m "
        f"WHERE m.{uid} = %s AND m.{gid} = t.g AND m.{thread} = t.th)"
    )
    return (
        f"WITH RECURSIVE t(g, th) AS (SELECT g.{pk}, {first} FROM {game} g WHERE {anchor} "
        f"UNION ALL SELECT t.g, {following} FROM t WHERE t.th IS NOT NULL) "
        f"SELECT t.g, t.th, {last}, {read}{extra} FROM t WHERE t.th IS NOT NULL"
    )


def _threads(game_ids, user, *, theirs=None, visit=False) -> list[tuple]:
    """(game id, thread, last number, mark or None[, last visit or None]) of every thread
    of `game_ids`; with `theirs` (ids), only the games among them, or that the user has a
    mark in. One query."""
    game_ids = list(game_ids)
    if not game_ids:
        return []
    params = list(game_ids)
    if theirs is not None:
        theirs = list(theirs) or [0]  # no id is 0: an IN list is never empty
        params += [*theirs, user.pk]
    params.append(user.pk)
    if visit:
        fresh = connection.ops.adapt_datetimefield_value(timezone.now() - VISIT_TOUCH)
        params += [user.pk, user.pk, fresh]
    sql = _threads_sql(len(game_ids), n_theirs=None if theirs is None else len(theirs), visit=visit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def thread_news(game: Game, user, *, visit=False) -> News:
    """Every thread of `game` that has posts, with the viewer's mark: one query, however
    many threads and posts (a probe of the post-number index per thread). With `visit`,
    the same query reads where the viewer's last visit ended (the game page moves it
    next)."""
    news = News()
    if not user.is_authenticated:
        return news
    for row in _threads([game.pk], user, visit=visit):
        news[row[1]] = ThreadNews(row[1], row[2], row[3] or 0)
        if visit:
            news.visit = -1 if row[4] is None else row[4]
            news.visit_current = row[5] is not None
    return news


def landing(news: ThreadNews | None) -> tuple[int, int] | None:
    """(page, post number) where opening a thread without a page lands: its first unread
    post, or its last when everything is read. None when the viewer never read it (page 1
    from the top, as for anyone) or it has no posts."""
    if news is None or news.read <= 0:
        return None
    number = news.first_unread or news.last
    return post_page(number), number


@dataclass
class ReadBar:
    """A thread page's read state, as the viewer had it when the page was asked for."""

    key: str  # the engine's thread key: never shown
    ref: str  # what the "Mark all read" form names it by (a room's opaque id)
    news: ThreadNews
    landing: tuple[int, int] | None
    by_ref: dict = field(default_factory=dict)  # ref -> new posts, for the threads' links
    private_new: int = 0  # new posts in the private threads the viewer reads

    @property
    def new(self) -> int:
        return self.news.new

    @property
    def first_unread_url(self) -> str:
        n = self.news.first_unread
        return f"?page={post_page(n)}#p{n}" if n else ""

    @property
    def latest_url(self) -> str:
        return f"?page={LAST}#p{self.news.last}" if self.news.last else ""


def read_bar(game: Game, key: str, news: dict, can: Readable) -> ReadBar:
    """The read state of thread `key` (one the viewer may read: the caller's access helper
    said so) from `news` (thread_news), and "N new" of every other thread they may read."""
    mine = {k: n for k, n in news.items() if can.can_read(k)}
    this = mine.get(key) or ThreadNews(key, 0, 0)
    return ReadBar(
        key=key,
        ref=_ref(game, key),
        news=this,
        landing=landing(this),
        by_ref={_ref(game, k): n.new for k, n in mine.items()},
        private_new=sum(n.new for k, n in mine.items() if k != PUBLIC),
    )


def _ref(game, key):
    return PUBLIC if key == PUBLIC else room_ref(game, key)


def news_by_ref(game: Game, user, can: Readable) -> dict[str, int]:
    """Thread id (room_ref, or "public") -> new posts, for every thread `user` may read:
    the threads' links on the desk and the afterlife. One query."""
    return {_ref(game, k): n.new for k, n in thread_news(game, user).items() if can.can_read(k)}


def thread_key(game: Game, user, ref: str, can: Readable) -> str | None:
    """The thread a form names by `ref` ("public", "afterlife" or a room's opaque id),
    among those `user` may read now; None for any other."""
    if ref == PUBLIC:
        return PUBLIC
    keys = can.keys if can.keys is not None else set(thread_news(game, user))
    return room_key(game, ref, [k for k in keys if k != PUBLIC])


def lobby_news(user, games) -> dict[int, int]:
    """Game id -> new posts for `user`, among `games` (the listed ones) that are theirs: a
    seat, a game they host, or one they have read before. Two queries for every listed game
    (the viewer's seats, then the threads' last numbers and marks), and the engine state of
    each running game they sit in (cached), for their rooms."""
    if not user.is_authenticated:
        return {}
    games = {g.pk: g for g in games if g.status != Game.Status.OPEN}
    if not games:
        return {}
    seats = {
        s.game_id: s
        for s in Seat.objects.filter(user=user, game_id__in=list(games)).select_related("game")
    }
    mine = set(seats) | {pk for pk, g in games.items() if g.host_id == user.pk}
    by_game = {}
    for game_id, thread, last, read in _threads(games, user, theirs=mine):
        by_game.setdefault(game_id, []).append(ThreadNews(thread, last, read or 0))
    out = {}
    for pk, threads in by_game.items():
        game = games[pk]
        if game.status == Game.Status.FINISHED:
            # After the end every thread is everyone's (W-71): those they have opened.
            keys = {t.key for t in threads if t.read} | PUBLIC_ONLY
        elif pk not in mine:  # a game they only watch (or a seat they gave up): its thread
            keys = PUBLIC_ONLY
        elif game.host_id == user.pk:
            keys = None
        else:
            keys = readable(game, user, seat=seats[pk]).keys
        out[pk] = sum(t.new for t in threads if keys is None or t.key in keys)
    return out
