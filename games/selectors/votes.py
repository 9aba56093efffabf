"""The day's votes as the public thread shows them: the forum-style count (W-4), the count
as it stood at any moment of a day (after a post, at the day's end), and the history of
the public votes, a day at a time (the latest day's last moves on the game page, each day
whole on its own page), so no page lists every vote of a long game or of a long day."""

from bisect import bisect_right
from dataclasses import dataclass, field

from django.db.models import Count, Q, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse

from games.engine import Phase, Tally, majority, sha_key

from ..models import DAY_VOTES, Game, GameEvent, Post
from ..narration import describe_event, phase_label
from .seats import names_then
from .threads import PUBLIC, moments, permalink, post_url


@dataclass
class VoteCount:
    rows: list = field(default_factory=list)  # (target, voters, L-n)
    not_voting: list = field(default_factory=list)
    living: int = 0
    needed: int = 0


def vote_count(state) -> VoteCount:
    """The forum-style count from the engine's tally: each candidate with votes, voters
    and how many more it takes (L-n), the not-voting list, and the majority (W-4)."""
    living = [s.name for s in state.seats if s.living]
    needed = majority(len(living))
    count = VoteCount(living=len(living), needed=needed)
    voted = set()
    for target, voters in state.tally():
        count.rows.append((target, voters, needed - len(voters)))
        voted.update(voters)
    count.not_voting = [n for n in living if n not in voted]
    return count


# --- the count at a moment, from the public events ---------------------------------------
# The engine keeps only the current day's tally; an earlier moment's is read back from what
# everyone was told: the day's votes and withdrawals, and the deaths (W-4a: a player who
# stops living by day loses their vote and every vote for them). Nothing else is read, so
# nothing but public events can show in it.
COUNT_EVENTS = Q(kind__in=("death", "public", "lynch", "replaced"))


def count_from_events(rows, day: str, seats, seed) -> VoteCount:
    """The count of `day` (a phase, "day 2") after the public events `rows` ((index, kind,
    phase, data), in order: the day's votes and the game's deaths up to the moment).
    Ordered as the engine's tally (W-5a); a lynch ends the day, so its count is the one
    before it."""
    living = set(seats)
    tally = Tally(seed, day)
    today = Phase.parse(day)
    for index, kind, phase, data in rows:
        when = Phase.parse(phase)
        if when > today:
            break
        if kind == "death":
            living.discard(data.get("player"))
            if when == today:
                tally.withdraw(data.get("player"), index)
                tally.drop_target(data.get("player"), index)
        elif kind == "public" and data.get("event") == "returned":
            living.add(data.get("player"))
        elif kind == "lynch" and when == today:
            break
        elif kind == "vote":
            tally.cast(data.get("voter"), data.get("target"), index)
        elif kind == "unvote":
            tally.withdraw(data.get("voter"), index)
    needed = majority(len(living))
    count = VoteCount(living=len(living), needed=needed)
    by_target = {}
    for voter, target in tally.votes.items():
        by_target.setdefault(target, []).append(voter)
    order = sorted(
        by_target,
        key=lambda t: (-len(by_target[t]), tally.changed[t], sha_key(seed, day, t)),
    )
    count.rows = [(t, sorted(by_target[t]), needed - len(by_target[t])) for t in order]
    count.not_voting = [s for s in seats if s in living and s not in tally.votes]
    return count


def _count_rows(game: Game, day: str, until=None):
    """The public events a count of `day` reads, up to the moment `until`: (rows, the
    game's replacements (index, data, time), the index of the first event after the moment)."""
    events = GameEvent.objects.filter(game=game, audience=GameEvent.Audience.PUBLIC).filter(
        Q(kind__in=DAY_VOTES, phase=day) | COUNT_EVENTS
    )
    if until is not None:  # every replacement: a name is "Ann (replaced by Bob)" for good
        events = events.filter(Q(created_at__lte=until) | Q(kind="replaced"))
    rows, replaced, bound = [], [], 0
    for index, kind, phase, data, at in events.order_by("index").values_list(
        "index", "kind", "phase", "data", "created_at"
    ):
        if until is None or at <= until:
            bound = index + 1
        if kind == "replaced":
            replaced.append((index, data, at))
        elif until is None or at <= until:
            rows.append((index, kind, phase, data))
    return rows, replaced, bound


def day_final_count(game: Game, day: str, names: dict) -> VoteCount:
    """The count of `day` as it stood when it ended (or stands now): for the summary post
    that closes the day. `names` are the seats, in their order."""
    rows, _replaced, _bound = _count_rows(game, day)
    return count_from_events(rows, day, list(names), game.seed)


@dataclass
class CountAtPost:
    number: int  # the post
    url: str  # its permalink
    phase: str  # the post's phase ("day 2", "night 2")
    day: str  # the day whose count it shows ("day 2": by night, the day just ended); ""
    day_number: int  # its number (0: none)
    count: VoteCount | None  # None when the post came before any day
    names: dict  # seat -> name as it was then (a replaced player's with their successor's)
    at: tuple  # the post's time in the reader's zone (threads.moments)


def count_at_post(game: Game, number: int, names: dict) -> CountAtPost | None:
    """The public vote count right after post `number` of the public thread: its day's
    as it stood then (by night, the day's final count); None when there is no such post.
    Two queries (three when a seat was replaced). `names` are the seats, in their order."""
    posts = Post.objects.filter(game=game, thread=PUBLIC, number=number)
    post = posts.values("phase", "created_at").first()
    if post is None:
        return None
    phase = post["phase"]
    parsed = Phase.parse(phase)  # none for a post before the deal
    number_of_day = parsed.number if parsed else 0
    out = CountAtPost(
        number=number,
        url=post_url(game.pk, number),
        phase=phase,
        day=f"day {number_of_day}" if number_of_day else "",
        day_number=number_of_day,
        count=None,
        names=names,
        at=moments()(post["created_at"]),
    )
    if out.day:
        rows, replaced, bound = _count_rows(game, out.day, until=post["created_at"])
        out.count = count_from_events(rows, out.day, list(names), game.seed)
        out.names = names_then(game, names, replaced).at(bound)
    return out


# --- the history ---------------------------------------------------------------------------
# The game page shows the latest day's last moves only: a 500-vote day read, worded and
# rendered whole after every vote was half the page's bytes and most of its making (issue
# 29). Twenty is a screenful of the side panel and covers the moves since a reader's last
# look on a busy day; the day's page (`votes_day`) lists the rest.
HISTORY_SHOWN = 20


@dataclass
class VoteRow:
    """One vote or withdrawal of the history: its words, the post that was the thread's
    latest when it was cast (number and permalink, or "") and its time in the reader's zone
    as the `date` filter writes it (threads.moments)."""

    text: str
    post: str
    post_url: str
    at_iso: str
    at_short: str
    at_zone: str


@dataclass
class VoteDay:
    day: int  # the day's number
    phase: str  # its phase ("day 3")
    votes: list[VoteRow]  # each vote and withdrawal shown (all, or the day's last), in order
    days: list  # (number, label) of every day so far, 1 … the latest: the links
    moves: int = 0  # the day's votes and withdrawals in all, shown or not

    @property
    def cut(self) -> bool:
        """Whether the day had moves before the ones shown."""
        return self.moves > len(self.votes)


def latest_day(game: Game) -> int:
    """The game's day: the one it is in, or by night the one just ended; 0 before Day 1."""
    phase = Phase.parse(game.phase)
    return phase.number if phase else 0


def vote_history(
    game: Game, names: dict, day: int | None = None, *, last: int | None = None
) -> VoteDay | None:
    """The public votes and withdrawals of day `day` (the latest by default), in order,
    in words (a replaced player's under the name they had), each with its time and the
    post it followed; only the day's `last` ones when given (and how many it had in all);
    None for a day the game has not reached. Two queries whatever the day's length (three
    when a seat was replaced)."""
    latest = latest_day(game)
    day = latest if day is None else day
    if not 1 <= day <= latest:
        return None
    phase = f"day {day}"
    rows, moves = _day_rows(game, phase, last)
    then = names_then(game, names, [(i, d, at) for i, kind, d, at in rows if kind == "replaced"])
    votes = [row for row in rows if row[1] != "replaced"]
    numbers = _posts_then(game, [at for *_, at in votes]) if votes else []
    base = reverse("game_detail", args=[game.pk])
    moment = moments()
    history = []
    for (index, kind, data, at), number in zip(votes, numbers, strict=True):
        at_iso, _long, at_short, at_zone = moment(at)  # no long date: the row shows enough
        history.append(
            VoteRow(
                describe_event(kind, data, then.at(index)),
                str(number or ""),
                permalink(base, number) if number else "",
                at_iso,
                at_short,
                at_zone,
            )
        )
    return VoteDay(
        day=day,
        phase=phase,
        votes=history,
        days=[(n, phase_label(f"day {n}")) for n in range(1, latest + 1)],
        moves=len(votes) if moves is None else moves,
    )


def _day_rows(game: Game, phase: str, last: int | None):
    """(rows, moves): the public votes and withdrawals of `phase` (its `last` ones when
    given) and every replacement of the game (a name is "Ann (replaced by Bob)" for good),
    as (index, kind, data, time) in order; and how many moves the day had in all (None
    when every one is read). One query: the day's last-th move from the end and its count
    are subqueries that depend on no row, so PostgreSQL runs each once, and no earlier
    move is read, worded or rendered."""
    events = GameEvent.objects.filter(game=game, audience=GameEvent.Audience.PUBLIC)
    day = events.filter(kind__in=DAY_VOTES, phase=phase)
    wanted = Q(kind__in=DAY_VOTES, phase=phase)
    fields = ["index", "kind", "data", "created_at"]
    if last is not None:
        # ORDER BY index DESC LIMIT 1 OFFSET last-1: the first move shown; none when the
        # day had fewer (then all are).
        first = day.order_by("-index").values("index")[last - 1 : last]
        wanted &= Q(index__gte=Coalesce(Subquery(first), 0))
        count = day.order_by().values("game").annotate(n=Count("pk")).values("n")
        events = events.annotate(moves=Coalesce(Subquery(count), 0))
        fields.append("moves")
    rows = list(events.filter(wanted | Q(kind="replaced")).order_by("index").values_list(*fields))
    if last is None:
        return rows, None
    moves = rows[0][4] if rows else 0
    return [row[:4] for row in rows], moves


def _posts_then(game: Game, times: list) -> list[int | None]:
    """For each moment of `times` (in order), the number of the public thread's latest post
    then: one query for the posts between the first and the last, and the one before."""
    first, last = times[0], times[-1]
    before = (
        Post.objects.filter(game=game, thread=PUBLIC, created_at__lt=first)
        .order_by("-number")
        .values("number")[:1]
    )
    posts = list(
        Post.objects.filter(game=game, thread=PUBLIC)
        .filter(Q(created_at__gte=first, created_at__lte=last) | Q(number=Subquery(before)))
        .order_by("number")
        .values_list("number", "created_at")
    )
    stamps = [at for _number, at in posts]  # in order: posts are numbered as they come
    found = []
    for at in times:
        i = bisect_right(stamps, at)
        found.append(posts[i - 1][0] if i else None)
    return found
