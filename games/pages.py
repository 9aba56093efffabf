"""Reads for the game pages that the selectors do not cover, each page's in one call.

Query counts are pinned by tests/games/test_queries.py. The public pages load seats
without their assignments, so no card is ever in a public page's context.
"""

from dataclasses import dataclass, field

from django.db.models import Count, Max, Prefetch, Q

from games.engine.options import options_for
from games.engine.rulesets.base import ALIVE, REMOVED

from . import turns
from .mapping import engine_state
from .models import Game, GameEvent, GameInput, PhaseLockIn, Post, Seat
from .rooms import AFTERLIFE, in_afterlife, room_label, rooms_for
from .selectors import (
    display_names,
    game_seats,
    seat_panel,
    thread_page,
    vote_count,
    vote_history,
)
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
    rooms: list = field(default_factory=list)  # (key, label) of the viewer's rooms now


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
        out.rooms = [(k, label_of(game, k)) for k in rooms_for(game, viewer_seat, state)]
    return out


@dataclass
class RolePage:
    game: Game
    seat: Seat
    names: dict
    panel: object  # selectors.SeatPanel
    knowledge: list  # (phase, [events]) in order
    rooms: list = field(default_factory=list)  # (key, label) of the seat's rooms now


def role_page(game, seat):
    """The private page of `seat` (the caller has checked that it is the viewer's)."""
    names = display_names(_seats(game))
    state = engine_state(game)
    panel = seat_panel(game, seat, state)
    return RolePage(
        game=game,
        seat=seat,
        names=names,
        panel=panel,
        knowledge=_by_phase(panel.knowledge),
        rooms=[(k, label_of(game, k)) for k in rooms_for(game, seat, state)],
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
    moderator_log: list = field(default_factory=list)  # ModeratorAct, in order
    threads: list = field(default_factory=list)  # RoomLink: every private thread


def _every_event(game):
    # The recipients say who could see each event (the log's audience column).
    return (
        GameEvent.objects.filter(game=game)
        .prefetch_related(Prefetch("recipients", queryset=Seat.objects.only("id", "name")))
        .order_by("index")
    )


def reveal_page(game):
    """The final reveal (W-71, WW-16): every card and every event, private ones included,
    the moderator's acts (W-72) and every private thread."""
    seats = game_seats(game)
    names = display_names(seats)
    state = engine_state(game)
    return RevealPage(
        game=game,
        seats=seats,
        names=names,
        statuses={s.name: s.status for s in state.seats},
        winners=list(state.winners),
        log=_by_phase(_every_event(game)),
        moderator_log=moderator_log(game, names),
        threads=room_links(game),
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


# --- the rooms beside the thread (issue 7) ----------------------------------------------------
# The order rooms are listed in; lovers-1, lovers-2… sort under "lovers".
ROOM_ORDER = ("coven", "juniors", "spies", "lovers", "musketeers", "court", "travelers",
              "innkeeper", "pack", AFTERLIFE)  # fmt: skip
# Results a group's members see in its room besides the events of its meeting (W-26a):
# the Inn's group its members' checks (W-43), the Court its membership (W-49), the Coven
# who it is once the Juniors join (W-26). Only events addressed to the viewer are read.
ROOM_RESULTS = {
    "innkeeper": ("inquisitor", "investigator"),
    "court": ("court",),
    "coven": ("coven",),
}


def label_of(game, key):
    """A room's name; the Werewolf dead have a graveyard, not the Witchhunt afterlife."""
    if key == AFTERLIFE and game.ruleset == Game.Ruleset.WEREWOLF:
        return "The graveyard"
    return room_label(key)


def _room_sort_key(key):
    base = key.split("-")[0]
    return (ROOM_ORDER.index(base) if base in ROOM_ORDER else len(ROOM_ORDER), key)


def room_members(game, state, key):
    """The seat names in a room now: a meeting's living members, or the afterlife's dead."""
    if state is None or game.status != Game.Status.RUNNING:
        return []
    if key == AFTERLIFE:
        return [s.name for s in state.seats if in_afterlife(state, s.name)]
    return list(state.meetings().get(key, []))


@dataclass
class RoomLink:
    key: str
    label: str
    posts: int
    members: list  # seat names in it now; empty once it has closed


def room_links(game, state=None):
    """Every private thread of the game: the rooms open now and those that have posts, in
    ROOM_ORDER. Only for viewers who see the whole game (the afterlife, the moderator, the
    reveal): the list says which groups exist."""
    counts = dict(
        Post.objects.filter(game=game)
        .exclude(thread="public")
        .values_list("thread")
        .annotate(n=Count("id"))
    )
    keys = set(counts)
    if state is not None and game.status == Game.Status.RUNNING:
        keys |= set(state.meetings())
        if any(in_afterlife(state, s.name) for s in state.seats):
            keys.add(AFTERLIFE)
    return [
        RoomLink(k, label_of(game, k), counts.get(k, 0), room_members(game, state, k))
        for k in sorted(keys, key=_room_sort_key)
    ]


def _room_events(game, key, seat=None):
    """The events of a room: its meeting's (the Coven's votes, the Court's, the Inn's and
    the Travelers' submissions) and its results; for a member only those addressed to them."""
    q = Q(meeting=key)
    results = ROOM_RESULTS.get(key)
    if results:
        q |= Q(kind="info", data__what__in=results)
    events = GameEvent.objects.filter(game=game).filter(q)
    if seat is not None:
        events = events.filter(audience=GameEvent.Audience.SEATS, recipients=seat)
    return list(events.order_by("index"))


@dataclass
class RoomPage:
    game: Game
    key: str
    label: str
    names: dict
    members: list
    posts: object  # a Page of selectors.thread_page
    events: list  # (phase, [events])
    viewer: Seat | None = None  # the member writing in it; None for a read-only view
    rooms: list = field(default_factory=list)  # the viewer's rooms (key, label)


def room_page(game, key, *, seat=None, state=None, page=1):
    """A room's thread and its group's events. With `seat` (a member, as the access helper
    checked) only what the seat may see; without, the read-only view of the whole room for
    those who see the whole game."""
    names = display_names(_seats(game))
    if state is None and game.status == Game.Status.RUNNING:
        state = engine_state(game)
    rooms = []
    if seat is not None:
        rooms = [(k, label_of(game, k)) for k in rooms_for(game, seat, state)]
    return RoomPage(
        game=game,
        key=key,
        label=label_of(game, key),
        names=names,
        members=room_members(game, state, key),
        posts=thread_page(game, page=page, thread=key),
        events=_by_phase(_room_events(game, key, seat) if key != AFTERLIFE else []),
        viewer=seat,
        rooms=rooms,
    )


@dataclass
class CardRow:
    seat: Seat
    status: str  # the engine's: the offstage show as such (W-14a, W-41)
    lives: int | None = None
    cards: int | None = None  # Archangel cards


def _card_rows(game, seats, state):
    rows = []
    for seat in seats:
        es = state.seat(seat.name)
        row = CardRow(seat, es.status)
        if game.ruleset == Game.Ruleset.WITCHHUNT:
            row.lives, row.cards = es.lives, es.cards
        rows.append(row)
    return rows


@dataclass
class AfterlifePage:
    game: Game
    seat: Seat
    names: dict
    posts: object  # a Page of the afterlife thread
    members: list  # the dead in it now
    whole_game: bool  # W-17 (Witchhunt); the Werewolf graveyard sees what the living see
    cards: list = field(default_factory=list)  # CardRow for every seat
    log: list = field(default_factory=list)  # (phase, [events]): every event
    threads: list = field(default_factory=list)  # RoomLink: every private thread
    angel: bool = False  # W-17: a dead Villager is an Angel, a dead Witch a Demon
    actions: list = field(default_factory=list)  # what the seat may do now (the role page)


def afterlife_page(game, seat, state, *, page=1):
    """The afterlife of a dead seat (the access helper checked that it is in it): its
    thread, and in Witchhunt the whole game as it happens (W-17)."""
    whole = game.ruleset == Game.Ruleset.WITCHHUNT
    seats = game_seats(game) if whole else _seats(game)
    out = AfterlifePage(
        game=game,
        seat=seat,
        names=display_names(seats),
        posts=thread_page(game, page=page, thread=AFTERLIFE),
        members=room_members(game, state, AFTERLIFE),
        whole_game=whole,
    )
    if whole:
        out.cards = _card_rows(game, seats, state)
        out.log = _by_phase(_every_event(game))
        out.threads = [t for t in room_links(game, state) if t.key != AFTERLIFE]
        out.angel = state.seat(seat.name).team == "village"
        out.actions = [o.action for o in options_for(state, seat.name) if o.action != "withdraw"]
    return out


# --- the moderator's desk ----------------------------------------------------------------------
DAY_VOTES = ("vote", "unvote")


@dataclass
class ActivityRow(CardRow):
    posts: int = 0
    last_post: object = None  # datetimes, or None
    last_vote: object = None
    last_action: object = None
    awaited: bool = False  # the phase waits for a decision of this seat (games/turns.py)
    done: bool = False  # said "I'm done for this phase" (W-2)


def _activity(game, seats, state):
    """Per seat, its current player's last post, day vote and other action (a replaced
    player's history stays with the seat but is not the newcomer's activity), in three
    queries whatever the size of the game."""
    posts = {
        (r["seat_id"], r["author_id"]): r
        for r in Post.objects.filter(game=game, kind=Post.Kind.PLAYER)
        .values("seat_id", "author_id")
        .annotate(n=Count("id"), last=Max("created_at"))
    }
    votes = Q(step__action__in=DAY_VOTES)
    inputs = {
        (r["seat_id"], r["by_id"]): r
        for r in GameInput.objects.filter(game=game, seat__isnull=False)
        .values("seat_id", "by_id")
        .annotate(
            last_vote=Max("created_at", filter=votes),
            last_action=Max("created_at", filter=~votes),
        )
    }
    done = set(
        PhaseLockIn.objects.filter(game=game, phase=game.phase).values_list("seat_id", flat=True)
    )
    rows = []
    for card in _card_rows(game, seats, state):
        seat = card.seat
        p = posts.get((seat.pk, seat.user_id), {})
        i = inputs.get((seat.pk, seat.user_id), {})
        rows.append(
            ActivityRow(
                **vars(card),
                posts=p.get("n", 0),
                last_post=p.get("last"),
                last_vote=i.get("last_vote"),
                last_action=i.get("last_action"),
                awaited=turns.awaited(state, seat.name),
                done=seat.pk in done,
            )
        )
    return rows


@dataclass
class DeskPage:
    game: Game
    names: dict
    rows: list  # ActivityRow per seat, with its cards
    log: list  # (phase, [events]): every event
    threads: list  # RoomLink: every private thread


def desk_page(game):
    """The moderator's desk of a running game: every card, every event, every room, and
    each seat's activity, in a constant number of queries."""
    seats = game_seats(game)
    state = engine_state(game)
    return DeskPage(
        game=game,
        names=display_names(seats),
        rows=_activity(game, seats, state),
        log=_by_phase(_every_event(game)),
        threads=room_links(game, state),
    )


@dataclass
class ModeratorAct:
    at: object  # when
    phase: str
    by: str  # the moderator's player name
    text: str = ""  # an act in words
    post: Post | None = None  # or a post: an announcement, a clock notice, "X replaces Y"


def _act_text(step, phase, names):
    if step.get("advance") == "phase":
        return f"Ended {phase} before its deadline (advance now)."
    if step.get("advance") == "midnight":
        return f"Passed midnight in {phase}."
    if step.get("moderator") == "remove":
        return f"Removed {names.get(step.get('player'), step.get('player'))} from the game (W-72)."
    if step.get("moderator") == "stalemate":
        return "Declared a stalemate (W-69a)."
    return str(step)


def moderator_log(game, names):
    """W-72: every moderator act in order: the engine inputs a moderator made (advance now,
    remove, stalemate) and the moderator's posts (announcements and the clock's notices)."""
    acts = [
        ModeratorAct(i.created_at, i.phase, i.by.player_name, _act_text(i.step, i.phase, names))
        for i in GameInput.objects.filter(game=game, seat__isnull=True, by__isnull=False)
        .select_related("by")
        .order_by("index")
        # A replacement's post, written in the same transaction, names both players.
        if i.step.get("moderator") != "replace"
    ]
    acts += [
        ModeratorAct(p.created_at, p.phase, p.author.player_name if p.author else "", post=p)
        for p in Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).select_related("author")
    ]
    return sorted(acts, key=lambda a: a.at)
