"""Every read for a page. Query counts are pinned by tests (tests/games/test_queries.py)."""

from dataclasses import dataclass, field

from django.core.paginator import Paginator
from django.db.models import Count

from games.engine.options import options_for
from games.engine.votes import majority

from .mapping import engine_state
from .models import Game, GameEvent, Post, Seat

POSTS_PER_PAGE = 50


def lobby_games():
    """Open, running and finished games, with their filled seats; three lists."""
    games = list(
        Game.objects.select_related("host")
        .annotate(filled=Count("seats"))
        .order_by("-created_at")[:300]
    )
    by_status = {s: [] for s in Game.Status.values}
    for g in games:
        by_status[g.status].append(g)
    return by_status


def game_seats(game):
    """Seats in order with their occupants (and cards: never render those to players)."""
    return list(
        Seat.objects.filter(game=game)
        .select_related("user", "assignment")
        .order_by("position", "joined_at")
    )


def display_names(seats):
    """Seat name -> the current occupant's player name (a replacement shows the new name)."""
    return {s.name: s.user.player_name for s in seats}


def thread_page(game, *, page=1, only=None, thread="public"):
    """A page of a thread, oldest first; `only` keeps one seat's posts (ISO)."""
    posts = (
        Post.objects.filter(game=game, thread=thread)
        .select_related("seat__user", "author", "event", "reply_to")
        .order_by("number")
    )
    if only:
        posts = posts.filter(seat__name=only)
    paginator = Paginator(posts, POSTS_PER_PAGE)
    return paginator.get_page(page)


@dataclass
class VoteCount:
    rows: list = field(default_factory=list)  # (target, voters, L-n)
    not_voting: list = field(default_factory=list)
    living: int = 0
    needed: int = 0


def vote_count(state):
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


def vote_history(game):
    """Every public vote and withdrawal, in order, with its phase."""
    return list(
        GameEvent.objects.filter(game=game, kind__in=("vote", "unvote"))
        .order_by("index")
        .values("phase", "kind", "data", "created_at")
    )


def seat_knowledge(game, seat):
    """Everything a seat has learned: the events addressed to it (their visibility says so;
    nothing else is read)."""
    return list(
        GameEvent.objects.filter(
            game=game, audience=GameEvent.Audience.SEATS, recipients=seat
        ).order_by("index")
    )


@dataclass
class SeatPanel:
    seat: Seat
    living: bool
    status: str
    options: list
    standing: dict
    knowledge: list
    extra: dict


def seat_panel(game, seat, state=None):
    """The private panel of a seat: its cards, status, what it learned, what it may do."""
    state = state or engine_state(game)
    es = state.seat(seat.name)
    extra = {}
    if game.ruleset == "witchhunt":
        extra = {
            "lives": es.lives,
            "cards": es.cards,
            "armed": es.weapon_night is not None and "weapon" not in es.used,
        }
    return SeatPanel(
        seat=seat,
        living=es.living,
        status=es.status,
        options=options_for(state, seat.name) if game.status == "running" else [],
        standing=state.standing(seat.name),
        knowledge=seat_knowledge(game, seat),
        extra=extra,
    )
