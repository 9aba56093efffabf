"""Reads for the game pages that the selectors do not cover, each page's in one call.

Query counts are pinned by tests/games/test_queries.py. The public pages load seats
without their assignments, so no card is ever in a public page's context.
"""

from dataclasses import dataclass, field

from django.db.models import Prefetch

from games.engine.options import options_for
from games.engine.rulesets.base import ALIVE, REMOVED

from .mapping import engine_state
from .models import Game, GameEvent, Post, Seat
from .selectors import display_names, seat_panel, thread_page, vote_count, vote_history
from .services import can_moderate


def public_status(state, name):
    """What everyone knows of a seat: alive, dead or removed. The offstage (a last act, the
    Magician's fake death) were announced dead, so they read as dead here (W-14a, W-41)."""
    if state is None:
        return ALIVE
    status = state.seat(name).status
    if status == ALIVE:
        return "alive"
    return "removed" if status == REMOVED else "dead"


@dataclass
class PlayerRow:
    seat: Seat
    name: str
    status: str


@dataclass
class GamePage:
    game: Game
    names: dict
    players: list
    viewer_seat: Seat | None
    viewer_status: str | None
    is_moderator: bool
    posts: object  # a Page of selectors.thread_page
    only: str | None
    count: object = None  # selectors.VoteCount, by day in a running game
    history: list = field(default_factory=list)
    setup: GameEvent | None = None
    my_vote: str | None = None
    can_post: bool = False
    can_vote: bool = False
    vote_targets: list = field(default_factory=list)
    has_actions: bool = False


def _seats(game):
    # No select_related("assignment"): a public page must not even hold the cards.
    return list(Seat.objects.filter(game=game).select_related("user").order_by("position", "pk"))


def game_page(game, user, *, page=1, only=None):
    """Everything the game page shows to `user`: the thread page, the players, the vote
    panel, and for the viewer's own seat what it may do (no card, no private result)."""
    seats = _seats(game)
    names = display_names(seats)
    viewer_seat = None
    if user.is_authenticated:
        viewer_seat = next((s for s in seats if s.user_id == user.pk), None)
    started = game.status != Game.Status.OPEN
    state = engine_state(game) if started else None
    only = only if only in names else None
    out = GamePage(
        game=game,
        names=names,
        players=[PlayerRow(s, names[s.name], public_status(state, s.name)) for s in seats],
        viewer_seat=viewer_seat,
        viewer_status=public_status(state, viewer_seat.name) if viewer_seat else None,
        is_moderator=can_moderate(game, user),
        posts=thread_page(game, page=page, only=only),
        only=only,
    )
    if not started:
        return out
    out.history = vote_history(game)
    out.setup = GameEvent.objects.filter(
        game=game, kind="setup", audience=GameEvent.Audience.PUBLIC
    ).first()
    running = game.status == Game.Status.RUNNING
    # After the end, the players may talk it over (services.post_create allows it).
    out.can_post = viewer_seat is not None and game.status == Game.Status.FINISHED
    if running and not state.night:
        out.count = vote_count(state)
    if running and viewer_seat is not None:
        es = state.seat(viewer_seat.name)
        out.my_vote = state.votes.votes.get(viewer_seat.name)
        out.can_post = es.living and not state.night
        out.can_vote = es.living and not state.night
        out.vote_targets = [s.name for s in state.seats if s.living]
        out.has_actions = any(
            o.action not in ("vote", "unvote") for o in options_for(state, viewer_seat.name)
        )
    return out


@dataclass
class RolePage:
    game: Game
    seat: Seat
    names: dict
    panel: object  # selectors.SeatPanel
    knowledge: list  # (phase, [events]) in order


def role_page(game, seat):
    """The private page of `seat` (the caller has checked that it is the viewer's)."""
    names = display_names(_seats(game))
    panel = seat_panel(game, seat, engine_state(game))
    return RolePage(
        game=game,
        seat=seat,
        names=names,
        panel=panel,
        knowledge=_by_phase(panel.knowledge),
    )


def _by_phase(events):
    """Events grouped by the phase they describe, phases in order of first appearance."""
    groups = {}
    for e in events:
        groups.setdefault(e.phase, []).append(e)
    return list(groups.items())


@dataclass
class RevealPage:
    game: Game
    seats: list
    names: dict
    statuses: dict
    winners: list
    log: list  # (phase, [events])


def reveal_page(game):
    """The final reveal (W-71, WW-16): every card and every event, private ones included."""
    seats = list(
        Seat.objects.filter(game=game)
        .select_related("user", "assignment")
        .order_by("position", "pk")
    )
    names = display_names(seats)
    state = engine_state(game)
    events = (
        GameEvent.objects.filter(game=game)
        .prefetch_related(Prefetch("recipients", queryset=Seat.objects.only("id", "name")))
        .order_by("index")
    )
    return RevealPage(
        game=game,
        seats=seats,
        names=names,
        statuses={s.name: s.status for s in state.seats},
        winners=list(state.winners),
        log=_by_phase(events),
    )


def post_quote(game, number, names):
    """Post `number` of the public thread as a Markdown quote for a reply, or None."""
    post = (
        Post.objects.filter(game=game, thread="public", number=number, kind=Post.Kind.PLAYER)
        .select_related("seat")
        .first()
    )
    if post is None:
        return None
    author = names.get(post.seat.name, post.seat.name)
    quoted = "\n".join(f"> {line}" for line in post.body.splitlines())
    return f"> **{author}** wrote in #{number}:\n{quoted}\n\n"


def lobby_user_games(user):
    """Ids of the games `user` has a seat in (to mark them in the lobby)."""
    if not user.is_authenticated:
        return set()
    return set(Seat.objects.filter(user=user).values_list("game_id", flat=True))
