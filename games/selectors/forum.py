"""The forum's habits on the game page (issue 31): each player's post count (this day's and
the whole game's, so a lurker shows) and the one-line vote markers between the public
thread's posts ("Elm votes Fern · L-1"), read from the public events only; and a post's
versions after its author's edits, and the post they may still edit."""

from bisect import bisect_right
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.engine import Phase, Tally, majority

from ..models import DAY_VOTES, Game, GameEvent, Post
from ..narration import display_name
from .threads import PUBLIC, moments


@dataclass(frozen=True)
class PostCount:
    day: int  # in the public thread on the game's latest day (by night, the day just ended)
    game: int  # in the public thread, the whole game


def post_counts(game: Game, seats) -> dict[int, PostCount]:
    """Seat id -> its current player's posts in the public thread, from the seats' own
    counters (services/posts.post_create): no query, whatever the thread's length."""
    phase = Phase.parse(game.phase)
    day = f"day {phase.number}" if phase else ""
    return {
        s.pk: PostCount(s.posts_day_count if s.posts_day == day else 0, s.posts_count)
        for s in seats
    }


# --- the vote markers ---------------------------------------------------------------------
# Read from the same public events as the count at a moment (selectors/votes.py): the day's
# votes and withdrawals, and the deaths and returns that change who may vote (W-4a). No
# other event is read, so nothing hidden can show in a marker.
MARKER_EVENTS = ("death", "public", "lynch")
# Between two posts the last MARKERS_SHOWN markers show; earlier ones are counted, with a
# link to their day's votes: a burst of hundreds of moves would bury the posts around it
# (and more than double the page's size: docs/benchmarks.md, page.cpu).
MARKERS_SHOWN = 5


def vote_markers(game: Game, rows: list, names: dict) -> list:
    """`rows` (a page of the whole public thread, threads._rows, in order) with each
    post's `markers`: the words of the day votes that landed after it and before the next
    post, none after the thread's last ("Elm votes Fern · L-1", L-n as the vote count
    showed it then: W-4), the last MARKERS_SHOWN of them; and its `markers_earlier`, the
    moves before those, counted by day ([{"count", "phase"}]). One
    query: the votes of the days that have one on the page, up to the next page's first
    post, and the game's deaths and returns."""
    for row in rows:
        row["markers"] = []
        row["markers_earlier"] = []
    if not rows:
        return rows
    public = GameEvent.objects.filter(game=game, audience=GameEvent.Audience.PUBLIC)
    first = rows[0]["created_at"]
    following = Post.objects.filter(
        game=game, thread=PUBLIC, number__gt=int(rows[-1]["number"])
    ).order_by("number")
    # Up to the next page's first post. After the thread's last post a vote is not yet
    # between posts: it shows once the next post comes, so a vote leaves the cached pages
    # of posts as they were (views/fragments.py) and the vote count tells it meanwhile.
    until = Coalesce(Subquery(following.values("created_at")[:1]), Value(rows[-1]["created_at"]))
    on_page = public.filter(kind__in=DAY_VOTES, created_at__gte=first, created_at__lt=until)
    events = public.filter(
        Q(kind__in=DAY_VOTES, phase__in=on_page.values("phase")) | Q(kind__in=MARKER_EVENTS),
        created_at__lt=until,
    )
    stamps = [row["created_at"] for row in rows]
    for said in _said(events.order_by("index"), list(names), game.seed):
        if said[0] >= first:
            rows[bisect_right(stamps, said[0]) - 1]["markers"].append(said)
    for row in rows:
        said = row["markers"]
        earlier, shown = said[:-MARKERS_SHOWN], said[-MARKERS_SHOWN:]
        row["markers"] = [_words(message, args, names) for _, _, message, args in shown]
        row["markers_earlier"] = _counted_by_day(earlier)
    return rows


def markers_appended(game: Game, rows: list, since: int, names: dict) -> dict | None:
    """The live refresh's `rows`, the posts after post `since` of an open page, with their
    vote markers; returned, the row of post `since` with those of the run after it, which
    the first of `rows` closes (its markers go before them). None after no post."""
    prior = Post.objects.filter(game=game, thread=PUBLIC, number=since)
    lead = prior.values("number", "created_at").first() if since else None
    vote_markers(game, [lead, *rows] if lead else rows, names)
    return lead


def _counted_by_day(said) -> list:
    out = []
    for _, phase, _, _ in said:
        if out and out[-1]["phase"] == phase:
            out[-1]["count"] += 1
        else:
            out.append({"count": 1, "phase": phase})
    return out


def _words(message, args, names) -> str:
    """A marker's words; the voter and target are seat names until shown."""
    named = {k: display_name(v, names) if k in ("voter", "target") else v for k, v in args.items()}
    return gettext(message) % named


# The markers' words, translated when shown (_words): only the last few of a run are.
VOTED = gettext_noop("%(voter)s votes %(target)s · L-%(needed)s")
UNVOTED = gettext_noop("%(voter)s unvotes")


def _said(events, seats: list, seed):
    """(time, phase, message, its arguments) of each day vote and withdrawal among
    `events`, in order, with the count it left (as selectors.votes.count_from_events
    counts)."""
    living = set(seats)
    tallies = {}
    for index, kind, phase, data, at in events.values_list(
        "index", "kind", "phase", "data", "created_at"
    ):
        player = data.get("player")
        if kind == "death":
            living.discard(player)
            if phase in tallies:  # W-4a: a player who dies by day loses every vote
                tallies[phase].withdraw(player, index)
                tallies[phase].drop_target(player, index)
        elif kind == "public" and data.get("event") == "returned":
            living.add(player)
        elif kind == "vote":
            tally = tallies.setdefault(phase, Tally(seed, phase))
            target = data.get("target")
            tally.cast(data.get("voter"), target, index)
            votes = sum(1 for t in tally.votes.values() if t == target)
            needed = max(majority(len(living)) - votes, 0)
            yield at, phase, VOTED, {"voter": data.get("voter"), "target": target, "needed": needed}
        elif kind == "unvote":
            tallies.setdefault(phase, Tally(seed, phase)).withdraw(data.get("voter"), index)
            yield at, phase, UNVOTED, {"voter": data.get("voter")}


# --- the edit window -----------------------------------------------------------------------
@dataclass
class Version:
    body_html: str  # sanitised (nh3), as Post.body_html
    at: tuple  # when it was written, in the reader's zone (threads.moments)
    latest: bool = False


def post_versions(game: Game, number: int) -> tuple[Post, list[Version]] | None:
    """Public post `number` and each of its texts, the first as posted to the latest: for
    the moderator, and for everyone once the game is over (views/post_edits.py says who).
    None when there is no such player's post. Two queries."""
    post = (
        Post.objects.filter(game=game, thread=PUBLIC, number=number, kind=Post.Kind.PLAYER)
        .select_related("author")
        .first()
    )
    if post is None:
        return None
    moment = moments()
    texts = [Version(v.body_html, moment(v.written_at)) for v in post.versions.all()]
    texts.append(Version(post.body_html, moment(post.edited_at or post.created_at), True))
    return post, texts


def editable_post(game: Game, seat) -> Post | None:
    """The viewer's latest public post when its edit window is still open (settings.
    POST_EDIT_MINUTES, this phase): the post box offers to edit it. One query, none when
    the seat's own record of its public posts (services/posts.post_create) says it wrote
    none this phase or none within the window."""
    since = timezone.now() - timedelta(minutes=settings.POST_EDIT_MINUTES)
    if seat.posts_day != game.phase or not seat.last_post_at or seat.last_post_at <= since:
        return None
    return (
        Post.objects.filter(
            game=game,
            thread=PUBLIC,
            seat=seat,
            author_id=seat.user_id,
            kind=Post.Kind.PLAYER,
            phase=game.phase,
            created_at__gt=since,
            hidden_at__isnull=True,
        )
        .order_by("-number")
        .only("number", "created_at")
        .first()
    )


def recently_edited(game: Game) -> list[tuple[int, str]]:
    """(number, HTML) of the public posts edited lately, for the live refresh: an edit
    comes within POST_EDIT_MINUTES of its post, so a page open since then has seen any
    older one. Hidden posts are left to the hidden list."""
    since = timezone.now() - timedelta(minutes=2 * settings.POST_EDIT_MINUTES)
    return list(
        Post.objects.filter(
            game=game, thread=PUBLIC, edited_at__gte=since, hidden_at__isnull=True
        ).values_list("number", "body_html")
    )
