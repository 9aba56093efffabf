"""Coming back to a game (issue 15): which threads a viewer may read now, how many posts of
each are new to them, where opening a thread lands, and "since you last read": what changed
in a game since the viewer's last visit, for its page and for the daily digest.

Read state is one ReadMark row per viewer and thread (the last post number seen), so
"N new" is the thread's last number less the mark: posts are numbered 1, 2, 3… with no gap
(services/posts.py), and no post is ever counted. Every game's threads are read in one
query (`thread_news`), every listed game's in one more (`lobby_news`).

Who may read what is the pages' own rule (games/permissions.py, the rooms' selectors): the
public thread for everyone; a seat's rooms now (a meeting while it is a living member, the
afterlife while dead); every thread for the moderator (the desk), for the Witchhunt
afterlife (W-17) and after the end (W-71). "Since you last read" is built from the events
the viewer's pages show them: the public ones, those addressed to their seat, and every
event only for those who see the whole game. A mark in a thread the viewer may no longer
read (a room they left, a seat they gave up) is never counted or shown.
"""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.engine import majority, options_for

from ..mapping import engine_state
from ..models import DAY_VOTES, Assignment, Game, GameEvent, GameVisit, Post, ReadMark, Seat
from ..narration import (
    ability_label,
    action_label,
    describe_event,
    phase_label,
    standing_text,
)
from ..narration import since as words
from ..narration.summaries import hidden_words
from ..permissions import AFTERLIFE, can_moderate, rooms_for
from .rooms import room_key, room_ref
from .seats import display_names, seats_public
from .threads import LAST, PUBLIC, post_page

_UNKNOWN = object()  # "look the viewer's seat up"

# How much "since you last read" shows of each part (the rest is counted): a week away must
# not make a page that lists every vote of the week.
FIRST_LINES = 3  # the first lines of a thread's first new posts
LINE_LENGTH = 140
MAX_VOTE_MOVES = 40
MAX_EVENTS = 60
# The options the role page leaves to the game page (the day vote) or to each submission.
NOT_ACTIONS = ("vote", "unvote", "withdraw")


# --- what a viewer may read ----------------------------------------------------------------
@dataclass
class Readable:
    """What a viewer may read of a game now."""

    keys: frozenset | None  # the threads they may read; None: every thread of the game
    seat: Seat | None = None
    own: frozenset = frozenset()  # the seat's own rooms now (rooms_for), the afterlife too
    moderator: bool = False
    whole_game: bool = False  # every event: the desk, the Witchhunt afterlife, the end
    finished: bool = False
    state: object = None

    def can_read(self, key: str) -> bool:
        return self.keys is None or key in self.keys


PUBLIC_ONLY = frozenset({PUBLIC})


def viewer_seat(game: Game, user) -> Seat | None:
    """The viewer's own seat in `game` (the seat, not the user, holds access: a replaced
    player has none)."""
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


def readable(game: Game, user, *, seat=_UNKNOWN, state=None) -> Readable:
    """Which threads of `game` `user` may read now, and whether they see every event.
    `seat` is the viewer's seat when the caller has it (None for none)."""
    if game.status == Game.Status.OPEN or not user.is_authenticated:
        return Readable(PUBLIC_ONLY)
    if game.status == Game.Status.FINISHED:  # W-71: every thread and card, to everyone
        return Readable(None, whole_game=True, finished=True)
    if seat is _UNKNOWN:
        seat = viewer_seat(game, user)
    if seat is None:  # the moderator has no seat: neither may play in the game they run
        if can_moderate(game, user):
            return Readable(None, moderator=True, whole_game=True)
        return Readable(PUBLIC_ONLY)
    state = state or engine_state(game)
    own = frozenset(rooms_for(game, seat, state))
    # W-17: the Witchhunt afterlife reads every room; the Werewolf graveyard only its own.
    whole = AFTERLIFE in own and game.ruleset == Game.Ruleset.WITCHHUNT
    keys = None if whole else PUBLIC_ONLY | own
    return Readable(keys, seat=seat, own=own, whole_game=whole, state=state)


def thread_url(game: Game, key: str, can: Readable) -> str:
    """The page on which the viewer reads thread `key` (one they may read)."""
    if key == PUBLIC:
        return reverse("game_detail", args=[game.pk])
    ref = room_ref(game, key)
    if can.finished:
        return reverse("game_reveal_room", args=[game.pk, ref])
    if can.moderator:
        return reverse("game_desk_room", args=[game.pk, ref])
    if key == AFTERLIFE:
        return reverse("game_afterlife", args=[game.pk])
    if key in can.own:
        return reverse("game_room", args=[game.pk, ref])
    return reverse("game_afterlife_room", args=[game.pk, ref])  # W-17: read-only


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
    event index seen, -1 for no visit), when it was asked for and the game has posts."""

    visit: int | None = None


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
        extra = (
            f", (SELECT v.{_q('event_index')} FROM {seen} v WHERE v.{uid} = %s AND v.{gid} = t.g)"
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
        params.append(user.pk)
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


# --- "since you last read" ------------------------------------------------------------------
@dataclass
class SinceLine:
    number: str
    author: str
    text: str
    url: str


@dataclass
class SinceThread:
    key: str  # never shown
    label: str
    url: str  # where opening it lands: its first new post
    new: int
    lines: list = field(default_factory=list)  # SinceLine: the first new posts' first lines


@dataclass
class SincePage:
    game: Game
    names: dict
    readable: Readable
    boundary: int  # the last event the viewer had seen (-1: none)
    visited_at: object = None  # when they last opened the game, or None
    threads: list = field(default_factory=list)  # SinceThread with new posts
    votes: list = field(default_factory=list)  # (phase label, [vote moves in words])
    votes_more: int = 0
    happened: list = field(default_factory=list)  # (phase label, [deaths, announcements])
    happened_more: int = 0
    private: list = field(default_factory=list)  # (phase label, [what the viewer learned])
    private_more: int = 0
    actions: list = field(default_factory=list)  # what the viewer's seat still has to do
    latest_event: int = -1  # the last event read: where the next visit starts

    @property
    def new_posts(self) -> int:
        return sum(t.new for t in self.threads)

    @property
    def changed(self) -> bool:
        return bool(self.threads or self.votes or self.happened or self.private)


def visit_boundary(game: Game, user, *, previous=False) -> tuple[int, object]:
    """(last event index seen, when) of the viewer's last visit, or with `previous` where
    the visit before the game page's last one ended (its "since you last read" link); (-1,
    None) for none."""
    index = "previous_index" if previous else "event_index"
    visit = GameVisit.objects.filter(user=user, game=game).values_list(index, "visited_at")
    found = visit.first()
    return found if found is not None else (-1, None)


def visible_events(game: Game, can: Readable):
    """The events the viewer's pages show them: the public ones, those addressed to their
    seat (the role page's), and every one for those who see the whole game."""
    events = GameEvent.objects.filter(game=game)
    if can.whole_game:
        return events
    q = Q(audience=GameEvent.Audience.PUBLIC)
    if can.seat is not None:
        addressed = GameEvent.recipients.through.objects.filter(seat=can.seat)
        q |= Q(audience=GameEvent.Audience.SEATS, pk__in=addressed.values("gameevent_id"))
    return events.filter(q)


def since_page(
    game: Game, user, *, previous=False, boundary: int | None = None, created_after=None,
    seat=_UNKNOWN,
) -> SincePage:  # fmt: skip
    """What changed in `game` for `user` since their last visit (GameVisit), since the visit
    before the game page's last one with `previous` (the page's link), or since event
    `boundary` when given (the digest's and the benchmark's: never from a request, an
    index counts hidden events), and, for the
    digest, only what happened after `created_after`: new posts per thread with their first
    lines, the day's vote moves with their wagons, deaths and announcements, what the viewer
    learned, and what their seat still has to do. A constant number of queries."""
    visited_at = None
    if boundary is None:
        boundary, visited_at = visit_boundary(game, user, previous=previous)
    seats = seats_public(game)
    names = display_names(seats)
    if seat is _UNKNOWN:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    state = engine_state(game) if game.status != Game.Status.OPEN else None
    can = readable(game, user, seat=seat, state=state)
    page = SincePage(game, names, can, boundary, visited_at, latest_event=boundary)
    page.threads = _new_threads(game, user, can, names)
    if state is None:
        return page
    events = visible_events(game, can).filter(index__gt=boundary)
    if created_after is not None:
        events = events.filter(created_at__gt=created_after)
    rows = list(events.order_by("index").values("index", "kind", "phase", "audience", "data"))
    if rows:
        page.latest_event = rows[-1]["index"]
    viewer = seat.name if seat is not None and not can.whole_game else None
    public = [r for r in rows if r["audience"] == GameEvent.Audience.PUBLIC]
    page.votes, page.votes_more = _vote_moves(game, public, state, names, viewer)
    page.happened, page.happened_more = _grouped(
        [r for r in public if r["kind"] not in (*DAY_VOTES, "setup")], names, None
    )
    page.private, page.private_more = _grouped(
        [r for r in rows if r["audience"] != GameEvent.Audience.PUBLIC], names, viewer
    )
    if seat is not None and game.status == Game.Status.RUNNING:
        page.actions = _pending(seat, state, names)
    return page


def _first_line(body: str) -> str:
    """A post's first line of its own: quotes (">") and blank lines skipped, Markdown's
    leading marks dropped, cut at LINE_LENGTH."""
    for line in body.splitlines():
        text = line.strip()
        if not text or text.startswith(">"):
            continue
        text = text.lstrip("#*-+ ").strip()
        if text:
            return text if len(text) <= LINE_LENGTH else text[: LINE_LENGTH - 1].rstrip() + "…"
    return ""


def _new_threads(game, user, can, names) -> list[SinceThread]:
    """The threads the viewer may read that have new posts, the public one first, with
    the first lines of their first new posts: two queries."""
    news = [n for k, n in thread_news(game, user).items() if can.can_read(k) and n.new]
    if not news:
        return []
    news.sort(key=lambda n: (n.key != PUBLIC, words.thread_label(n.key, game.ruleset)))
    first = Q()
    for n in news:
        first |= Q(thread=n.key, number__gt=n.read, number__lte=n.read + FIRST_LINES)
    posts = (
        Post.objects.filter(game=game)
        .filter(first)
        .order_by("thread", "number")
        .values(
            "thread",
            "number",
            "kind",
            "body",
            "author__player_name",
            "event__kind",
            "event__data",
            "hidden_at",
            "hidden_reason",
        )
    )
    lines = {}
    for p in posts:
        if p["event__kind"]:
            text = describe_event(p["event__kind"], p["event__data"], names)
        elif p["hidden_at"]:  # as its thread shows it: the moderator's reason, not the text
            text = hidden_words(p["hidden_reason"])
        else:
            text = _first_line(p["body"])
        author = p["author__player_name"] or ""
        lines.setdefault(p["thread"], []).append((p["number"], author, text))
    out = []
    for n in news:
        base = thread_url(game, n.key, can)
        out.append(
            SinceThread(
                key=n.key,
                label=words.thread_label(n.key, game.ruleset),
                url=f"{base}?page={post_page(n.first_unread)}#p{n.first_unread}",
                new=n.new,
                lines=[
                    SinceLine(str(num), who, text, f"{base}?page={post_page(num)}#p{num}")
                    for num, who, text in lines.get(n.key, [])
                ],
            )
        )
    return out


def _grouped(rows, names, viewer, limit=MAX_EVENTS) -> tuple[list, int]:
    """Events in words, grouped by phase in order; the latest `limit`, and how many more."""
    more = max(len(rows) - limit, 0)
    groups = {}
    for r in rows[more:]:
        text = describe_event(r["kind"], r["data"], names, viewer)
        groups.setdefault(r["phase"], []).append(text)
    return [(phase_label(p), lines) for p, lines in groups.items()], more


def _death_of(row) -> str | None:
    """The player a public event takes out of the living, if any."""
    kind, data = row["kind"], row["data"]
    if kind == "lynch":
        return data.get("target")
    if kind == "death" or (kind == "public" and data.get("event") == "removed"):
        return data.get("player")
    return None


def _return_of(row) -> str | None:
    if row["kind"] == "public" and row["data"].get("event") == "returned":
        return row["data"].get("player")
    return None


def _vote_moves(game, public, state, names, viewer) -> tuple[list, int]:
    """The day votes among the new public events, each with the wagons it changed (L-n:
    votes still needed for a majority of the living then, W-4). Each day's votes are
    replayed from its first (one query for those before the first shown), deaths voiding
    the votes of and on the dead as the engine's tally does; the living then are those of
    now, with the later deaths undone."""
    new_votes = [r for r in public if r["kind"] in DAY_VOTES]
    if not new_votes:
        return [], 0
    shown_from = public[0]["index"]
    earlier = list(
        GameEvent.objects.filter(
            game=game,
            audience=GameEvent.Audience.PUBLIC,
            phase__in={r["phase"] for r in new_votes},
            index__lt=shown_from,
            kind__in=(*DAY_VOTES, "lynch", "death", "public"),
        )
        .order_by("index")
        .values("index", "kind", "phase", "audience", "data")
    )
    living = {s.name for s in state.seats if s.living}
    living_at = {}
    for row in reversed(public):  # now, back to the boundary
        living_at[row["index"]] = len(living)
        if (dead := _death_of(row)) is not None:
            living.add(dead)
        if (back := _return_of(row)) is not None:
            living.discard(back)
    moves = []  # (phase, words)
    votes, day = {}, None
    for row in earlier + public:
        if row["kind"] == "phase" or row["phase"] != day:
            votes, day = {}, row["phase"]
        if (dead := _death_of(row)) is not None:
            votes.pop(dead, None)
            votes = {v: t for v, t in votes.items() if t != dead}
            continue
        if row["kind"] not in DAY_VOTES:
            continue
        voter = row["data"].get("voter")
        old = votes.get(voter)
        target = row["data"].get("target") if row["kind"] == "vote" else None
        if target:
            votes[voter] = target
        else:
            votes.pop(voter, None)
        if row["index"] < shown_from or old == target:
            continue
        need = majority(living_at[row["index"]])
        tally = list(votes.values())
        moves.append(
            (
                row["phase"],
                words.vote_move(
                    voter=voter,
                    old=old,
                    target=target,
                    left_target=need - tally.count(target) if target else None,
                    left_old=need - tally.count(old) if old else None,
                    names=names,
                    viewer=viewer,
                ),
            )
        )
    more = max(len(moves) - MAX_VOTE_MOVES, 0)
    groups = {}
    for phase, text in moves[more:]:
        groups.setdefault(phase, []).append(text)
    return [(phase_label(p), lines) for p, lines in groups.items()], more


def _pending(seat, state, names) -> list[str]:
    """What the seat may still do now, as the role page offers it (engine options_for and
    standing): the day vote, then each other action, chosen or not yet."""
    es = state.seat(seat.name)
    if es is None:
        return []
    lines = []
    if not state.night and es.living:
        vote = state.votes.votes.get(seat.name)
        lines.append(words.voted_for(vote, names) if vote else words.not_voted())
    standing = state.standing(seat.name)
    options = [o for o in options_for(state, seat.name) if o.action not in NOT_ACTIONS]
    card = None
    if any(o.action == "ability" for o in options):
        a = Assignment.objects.filter(seat=seat).values("role", "character").first() or {}
        card = a.get("role") or a.get("character")
    for o in options:
        if o.action in standing:
            lines.append(words.action_standing(standing_text(o.action, standing[o.action], names)))
        else:
            label = ability_label(card) if o.action == "ability" else action_label(o.action)
            lines.append(words.action_open(label))
    return lines or [words.nothing_to_do()]


def digest_pages(user, *, since=None) -> list[SincePage]:
    """The digest of `user`: "since you last read" for each running game they sit in, and
    each that ended after `since` (their last digest); only what happened after `since`
    counts as news (new posts stay those they have not read). Games with nothing to tell
    are left out."""
    ended = Q(game__status=Game.Status.FINISHED)
    ended &= Q(game__finished_at__gt=since or timezone.now() - timedelta(days=1))
    seats = (
        Seat.objects.filter(user=user)
        .filter(Q(game__status=Game.Status.RUNNING) | ended)
        .select_related("game", "game__host")
        .order_by("game__started_at", "game_id")
    )
    pages = []
    for seat in seats:
        page = since_page(seat.game, user, created_after=since, seat=seat)
        if page.changed or page.actions:
            pages.append(page)
    return pages
