"""The rooms beside the public thread: who may enter which room now, each room's page,
the list of every private thread (for those who see the whole game), and the afterlife.

Access is the seat's (games/permissions.py); a room a viewer may not use is the same 404
as one that does not exist, so a page never tells a non-member that a group exists.

A room is named in URLs and pages by an opaque id (`room_ref`), never by the engine's
meeting key: the Lovers' keys count the pairs in seat order (lovers-1, lovers-2…), so a
Lover would learn how many pairs sit before them. The id is mapped back to the key only
among the rooms the viewer may open (`room_key`), so a guessed key is a 404. Posts keep
the engine's key in Post.thread; no page shows it.
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Q
from django.utils.crypto import constant_time_compare, salted_hmac

from games.engine import options_for

from ..mapping import engine_state
from ..models import Game, GameEvent, Post, Seat
from ..narration.rooms import room_label
from ..permissions import AFTERLIFE, in_afterlife, rooms_for
from .log import by_phase, events_all
from .seats import CardRow, card_rows, display_names, game_seats, seats_public
from .threads import PUBLIC, thread_page

# The order rooms are listed in; lovers-1, lovers-2… sort under "lovers", by their ids.
ROOM_ORDER = ("coven", "juniors", "spies", "lovers", "musketeers", "court", "travelers",
              "innkeeper", "pack", AFTERLIFE)  # fmt: skip
# A room's id: an HMAC of (game, seed, meeting key) under the site's secret, truncated.
REF_SALT = "games.rooms.ref"
REF_LENGTH = 20  # hex digits: 80 bits
# Results a group's members see in its room besides the events of its meeting (W-26a):
# the Inn's group its members' checks (W-43), the Court its membership (W-49), the Coven
# who it is once the Juniors join (W-26). Only events addressed to the viewer are read.
ROOM_RESULTS = {
    "innkeeper": ("inquisitor", "investigator"),
    "court": ("court",),
    "coven": ("coven",),
}


def label_of(game: Game, key: str) -> str:
    return room_label(key, game.ruleset)


def _hmac_ref(game: Game, key: str, secret=None) -> str:
    value = f"{game.pk}:{game.seed}:{key}"
    digest = salted_hmac(REF_SALT, value, secret=secret, algorithm="sha256").hexdigest()
    return digest[:REF_LENGTH]


def room_ref(game: Game, key: str) -> str:
    """The id of room `key` in `game`'s URLs and pages: opaque for a meeting; the afterlife,
    one per game and the same word in every game, keeps its name."""
    return AFTERLIFE if key == AFTERLIFE else _hmac_ref(game, key)


def room_key(game: Game, ref: str, keys) -> str | None:
    """The room among `keys` (those the viewer may open now) whose id is `ref`, else None.
    An id made under a retired secret (SECRET_KEY_FALLBACKS) still opens its room."""
    secrets = [None, *getattr(settings, "SECRET_KEY_FALLBACKS", ())]
    for key in keys:
        if key == AFTERLIFE:
            if ref == AFTERLIFE:
                return key
        elif any(constant_time_compare(ref, _hmac_ref(game, key, s)) for s in secrets):
            return key
    return None


def _room_sort_key(game, key):
    """ROOM_ORDER, then the id: never the seat order the Lovers' keys count in."""
    base = key.split("-")[0]
    rank = ROOM_ORDER.index(base) if base in ROOM_ORDER else len(ROOM_ORDER)
    return (rank, room_ref(game, key))


def seat_rooms(game: Game, seat: Seat, state=None) -> list[tuple[str, str]]:
    """(id, label) of the rooms `seat` may use now, in ROOM_ORDER."""
    keys = sorted(rooms_for(game, seat, state), key=lambda k: _room_sort_key(game, k))
    return [(room_ref(game, k), label_of(game, k)) for k in keys]


def seat_room(seat: Seat, ref: str):
    """(engine state, meeting key) when the seat is a member of the meeting whose id is
    `ref` now (living, and in the group while it exists), else None."""
    game = seat.game
    if game.status != Game.Status.RUNNING:
        return None
    state = engine_state(game)
    meetings = [k for k in rooms_for(game, seat, state) if k != AFTERLIFE]
    key = room_key(game, ref, meetings)  # the afterlife has its own page
    return None if key is None else (state, key)


def afterlife_state_for(seat: Seat):
    """The engine state of the seat's game when the seat is in the afterlife now (W-17):
    dead, not offstage (W-14a, W-41) and not removed (W-72); else None."""
    game = seat.game
    if game.status != Game.Status.RUNNING:
        return None
    state = engine_state(game)
    return state if in_afterlife(state, seat.name) else None


def game_state_if_running(game: Game):
    """The engine state of a running game (for a read-only room view), else None."""
    return engine_state(game) if game.status == Game.Status.RUNNING else None


def room_members(game: Game, state, key: str) -> list[str]:
    """The seat names in a room now: a meeting's living members, or the afterlife's dead."""
    if state is None or game.status != Game.Status.RUNNING:
        return []
    if key == AFTERLIFE:
        return [s.name for s in state.seats if in_afterlife(state, s.name)]
    return list(state.meetings().get(key, []))


@dataclass
class RoomLink:
    key: str  # the engine's meeting key: never shown (pages use `ref`)
    ref: str  # the room's id in URLs and pages (room_ref)
    label: str
    posts: int
    members: list  # seat names in it now; empty once it has closed


def room_links(game: Game, state=None) -> list[RoomLink]:
    """Every private thread of the game: the rooms open now and those that have posts, in
    ROOM_ORDER. Only for viewers who see the whole game (the afterlife, the moderator, the
    reveal): the list says which groups exist."""
    counts = dict(
        Post.objects.filter(game=game)
        .exclude(thread=PUBLIC)
        .values_list("thread")
        .annotate(n=Count("id"))
    )
    keys = set(counts)
    if state is not None and game.status == Game.Status.RUNNING:
        keys |= set(state.meetings())
        if any(in_afterlife(state, s.name) for s in state.seats):
            keys.add(AFTERLIFE)
    return [
        RoomLink(
            k, room_ref(game, k), label_of(game, k), counts.get(k, 0), room_members(game, state, k)
        )
        for k in sorted(keys, key=lambda k: _room_sort_key(game, k))
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
    key: str  # the engine's meeting key: never shown (pages use `ref`)
    ref: str  # the room's id in URLs and pages
    label: str
    names: dict
    members: list
    posts: object  # threads.ThreadPage
    events: list  # (phase, [events])
    viewer: Seat | None = None  # the member writing in it; None for a read-only view
    rooms: list = field(default_factory=list)  # the viewer's rooms (key, label)


def room_page(game: Game, key: str, *, seat=None, state=None, page=1) -> RoomPage:
    """A room's thread and its group's events. With `seat` (a member, as the access helper
    checked) only what the seat may see; without, the read-only view of the whole room for
    those who see the whole game."""
    names = display_names(seats_public(game))
    if state is None and game.status == Game.Status.RUNNING:
        state = engine_state(game)
    return RoomPage(
        game=game,
        key=key,
        ref=room_ref(game, key),
        label=label_of(game, key),
        names=names,
        members=room_members(game, state, key),
        posts=thread_page(game, page=page, thread=key),
        events=by_phase(_room_events(game, key, seat) if key != AFTERLIFE else []),
        viewer=seat,
        rooms=seat_rooms(game, seat, state) if seat is not None else [],
    )


@dataclass
class AfterlifePage:
    game: Game
    seat: Seat
    names: dict
    posts: object  # threads.ThreadPage of the afterlife thread
    members: list  # the dead in it now
    whole_game: bool  # W-17 (Witchhunt); the Werewolf graveyard sees what the living see
    cards: list[CardRow] = field(default_factory=list)  # every seat
    log: list = field(default_factory=list)  # (phase, [events]): every event
    threads: list = field(default_factory=list)  # RoomLink: every private thread
    angel: bool = False  # W-17: a dead Villager is an Angel, a dead Witch a Demon
    actions: list = field(default_factory=list)  # what the seat may do now (the role page)


def afterlife_page(game: Game, seat: Seat, state, *, page=1) -> AfterlifePage:
    """The afterlife of a dead seat (the access helper checked that it is in it): its
    thread, and in Witchhunt the whole game as it happens (W-17)."""
    whole = game.ruleset == Game.Ruleset.WITCHHUNT
    seats = game_seats(game) if whole else seats_public(game)
    out = AfterlifePage(
        game=game,
        seat=seat,
        names=display_names(seats),
        posts=thread_page(game, page=page, thread=AFTERLIFE),
        members=room_members(game, state, AFTERLIFE),
        whole_game=whole,
    )
    if whole:
        out.cards = card_rows(game, seats, state)
        out.log = by_phase(events_all(game))
        out.threads = [t for t in room_links(game, state) if t.key != AFTERLIFE]
        out.angel = state.seat(seat.name).team == "village"
        out.actions = [o.action for o in options_for(state, seat.name) if o.action != "withdraw"]
    return out


def finished_room_links(games) -> dict[int, list[RoomLink]]:
    """Game id -> room_links of each finished game, in one query for them all (the
    archive): once a game is over its private threads are those with posts, open to all."""
    by_id = {g.pk: g for g in games if g.status == Game.Status.FINISHED}
    counts = (
        Post.objects.filter(game_id__in=list(by_id))
        .exclude(thread=PUBLIC)
        .values_list("game", "thread")
        .annotate(n=Count("id"))
    )
    found = {}
    for game_id, key, n in counts:
        game = by_id[game_id]
        found.setdefault(game_id, []).append(
            RoomLink(key, room_ref(game, key), label_of(game, key), n, [])
        )
    for game_id, links in found.items():
        links.sort(key=lambda link, g=by_id[game_id]: _room_sort_key(g, link.key))
    return found
