"""The calendar feeds' reads: a feed by its token, and the deadlines a feed lists.

A deadline is only what the public thread shows about time: the game, its phase's name,
when the phase ends (or the game starts), whether the clock is paused. How often it moved
in this phase and when it last did are counted from the public thread's own notices of it
(a moderator's extension, shortening, set time, pause and restart, the early end of W-2a,
a moved start), never from the row's other clocks, which a hidden input may move. So
a feed is byte for byte the same whatever the night did.

Each read is one query, however many games a member is in (the counts and the last
notice are subqueries of it).
"""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, IntegerField, Max, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from games.models import CalendarFeed, Game, Post, Seat
from games.narration import said
from games.selectors.threads import PUBLIC

from .tokens import TOKEN_CHARS, token_hash

# The public thread's notices that move a deadline or say it stands still, as Post.words
# keeps their kind (a stored kind never changes). The start's are the community's notices
# of a moved or cleared start date (written while the game is open, in the phase "").
MOVES = (
    said.CLOCK_PAUSED,
    said.CLOCK_RESUMED,
    said.CLOCK_EXTENDED,
    said.CLOCK_SHORTENED,
    said.CLOCK_SET,
    said.EARLY_END,
    "start_moved",
    "start_cleared",
)
LISTED = (Game.Status.OPEN, Game.Status.RUNNING)


@dataclass(frozen=True)
class Deadline:
    """One event of a feed: a phase's end, or an open game's start."""

    game_id: int
    title: str
    phase: str  # "day 2"; "" for the start
    at: datetime  # UTC
    paused: bool
    sequence: int  # the public notices of a move in this phase so far
    changed_at: datetime  # the last of them, or when the phase (or the game) began

    @property
    def is_start(self) -> bool:
        return not self.phase


def feed_for_token(token: str) -> CalendarFeed | None:
    """The feed whose address holds `token`, with its member; None for any other text."""
    if len(token) != TOKEN_CHARS:
        return None
    return (
        CalendarFeed.objects.select_related("user")
        .filter(token_hash=token_hash(token), user__is_active=True)
        .first()
    )


def _with_moves(games):
    """`games` with each one's count of public notices of a move in its current phase, and
    the moment of the last one."""
    moves = (
        Post.objects.filter(
            game=OuterRef("pk"), thread=PUBLIC, phase=OuterRef("phase"), words__kind__in=MOVES
        )
        .order_by()
        .values("game")
    )
    return games.annotate(
        moves=Coalesce(
            Subquery(moves.annotate(n=Count("pk")).values("n")[:1]),
            Value(0),
            output_field=IntegerField(),
        ),
        moved_at=Subquery(moves.annotate(last=Max("created_at")).values("last")[:1]),
    )


def _deadline(game) -> Deadline | None:
    if game.status == Game.Status.RUNNING and game.deadline_at is not None:
        at, began = game.deadline_at, game.phase_started_at or game.started_at
    elif game.status == Game.Status.OPEN and game.signups_close_at is not None:
        at, began = game.signups_close_at, game.created_at
    else:
        return None
    return Deadline(
        game_id=game.pk,
        title=game.title,
        phase=game.phase if game.status == Game.Status.RUNNING else "",
        at=at,
        paused=game.paused_at is not None,
        sequence=game.moves,
        changed_at=game.moved_at or began,
    )


# Only the columns a deadline reads: the feed never holds a game's hidden state.
COLUMNS = ("id", "title", "status", "phase", "deadline_at", "paused_at", "phase_started_at",
           "started_at", "signups_close_at", "created_at")  # fmt: skip


def _deadlines(games) -> list[Deadline]:
    found = (_deadline(g) for g in _with_moves(games.only(*COLUMNS)).order_by("pk"))
    return [d for d in found if d is not None]


def member_deadlines(user) -> list[Deadline]:
    """The deadlines of `user`'s games: every open or running game where they hold a seat
    now (an open one's start, when it has a date) or which they host."""
    seated = Seat.objects.filter(user=user).values("game_id")
    return _deadlines(Game.objects.filter(Q(host=user) | Q(pk__in=seated), status__in=LISTED))


def game_deadlines(game) -> list[Deadline]:
    """The deadline of one game, as everyone sees it (none once it is finished)."""
    return _deadlines(Game.objects.filter(pk=game.pk, status__in=LISTED))
