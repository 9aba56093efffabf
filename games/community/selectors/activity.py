"""The desk's activity and replacements (issue 16): per seat, its current player's posts
this phase and in the game, last post, last visit, whether the phase waits on them, the
prods they were sent and how long they are away; then the seats waiting for a
replacement, each with its offers, and the volunteers on the list for this game or any.

For the moderator only (the desk): it names who volunteered and who was offered what.
One call, a fixed number of queries whatever the size of the game."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Max, Q

from games import turns
from games.mapping import engine_state
from games.models import Game, GameVisit, Post, Prod, ReplacementOffer, ReplacementVolunteer
from games.permissions import seat_held_q
from games.selectors.seats import seats_public

from ..narration import reason_label
from .absences import away_until

# The desk lists at most this many volunteers (the list for any game can grow long).
VOLUNTEERS_SHOWN = 50


@dataclass
class SeatActivity:
    name: str  # the seat's name (the forms' value)
    player: str  # its player now
    living: bool
    posts_phase: int = 0  # in the public thread, this phase
    posts: int = 0  # in the public thread, the whole game (this player's, not the seat's)
    last_post: datetime | None = None
    last_seen: datetime | None = None  # their last look at the game (GameVisit)
    awaited: bool = False  # the phase waits for a decision of theirs (games/turns.py)
    prods: int = 0  # sent to this player in this seat
    away_until: datetime | None = None
    wanted_at: datetime | None = None  # marked for replacement
    reason: str = ""  # why, in words


@dataclass
class WaitingSeat:
    name: str
    player: str
    since: datetime
    reason: str
    offers: list = field(default_factory=list)  # (player name, status, when)


@dataclass
class VolunteerRow:
    player: str
    this_game: bool  # on the list for this game, not any game
    hours_per_week: int
    note: str


@dataclass
class DeskActivity:
    seats: list[SeatActivity]
    waiting: list[WaitingSeat]
    volunteers: list[VolunteerRow]


def desk_activity(game: Game, now: datetime) -> DeskActivity:
    """The desk's activity, replacement and volunteer tables of a running game, in seven
    queries at most: the seats, the posts, the visits, the prods, the absences, the
    volunteers and (when a seat is waiting) its offers."""
    seats = seats_public(game)
    state = engine_state(game)
    users = [s.user_id for s in seats]
    posts = {
        (r["seat_id"], r["author_id"]): r
        for r in Post.objects.filter(game=game, thread="public", kind=Post.Kind.PLAYER)
        .values("seat_id", "author_id")
        .annotate(
            n=Count("id"), phase=Count("id", filter=Q(phase=game.phase)), last=Max("created_at")
        )
    }
    seen = dict(
        GameVisit.objects.filter(game=game, user_id__in=users).values_list("user_id", "visited_at")
    )
    prods = {
        (r["seat_id"], r["user_id"]): r["n"]
        for r in Prod.objects.filter(seat__game=game)
        .values("seat_id", "user_id")
        .annotate(n=Count("id"))
    }
    away = away_until(users, now)
    rows = []
    for seat in seats:
        key = (seat.pk, seat.user_id)
        p = posts.get(key, {})
        rows.append(
            SeatActivity(
                name=seat.name,
                player=seat.user.player_name,
                living=state.seat(seat.name).living,
                posts_phase=p.get("phase", 0),
                posts=p.get("n", 0),
                last_post=p.get("last"),
                last_seen=seen.get(seat.user_id),
                awaited=turns.awaited(state, seat.name),
                prods=prods.get(key, 0),
                away_until=away.get(seat.user_id),
                wanted_at=seat.replacement_wanted_at,
                reason=reason_label(seat.replacement_reason) if seat.replacement_reason else "",
            )
        )
    return DeskActivity(rows, _waiting(game, seats), _volunteers(game, users))


def _waiting(game, seats) -> list[WaitingSeat]:
    marked = [s for s in seats if s.replacement_wanted_at is not None]
    if not marked:
        return []
    offers = {}
    # Who has the seat on offer, and who said no (never offered it again); offers closed
    # by an earlier marking's end are history.
    for o in (
        ReplacementOffer.objects.filter(
            seat__in=marked,
            status__in=(ReplacementOffer.Status.OPEN, ReplacementOffer.Status.DECLINED),
        )
        .select_related("user")
        .order_by("created_at", "pk")
    ):
        offers.setdefault(o.seat_id, []).append(
            (o.user.player_name, o.get_status_display(), o.created_at)
        )
    return [
        WaitingSeat(
            s.name,
            s.user.player_name,
            s.replacement_wanted_at,
            reason_label(s.replacement_reason),
            offers.get(s.pk, []),
        )
        for s in marked
    ]


def _volunteers(game, seated) -> list[VolunteerRow]:
    """The list for this game first, then for any game: who could be offered a seat."""
    rows = (
        ReplacementVolunteer.objects.filter(
            Q(game=game) | Q(game__isnull=True), user__is_active=True
        )
        .exclude(user_id__in=[*seated, game.host_id])
        .exclude(seat_held_q(game))  # issue 25: nor anyone replaced out of it
        .select_related("user")
        .order_by("created_at", "pk")[:VOLUNTEERS_SHOWN]
    )
    return sorted(
        (
            VolunteerRow(r.user.player_name, r.game_id is not None, r.hours_per_week, r.note)
            for r in rows
        ),
        key=lambda v: not v.this_game,
    )
