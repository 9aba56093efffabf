"""The spectators' reads: who may open the spectators' page and thread, what the page shows
under the host's delay (delay.py), the thread, and the desk's list with its flags."""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Max
from django.utils import timezone

from games.mapping import engine_state
from games.models import (
    Game,
    Post,
    Seat,
    SignInAddress,
    Spectator,
    SpectatorPost,
    SpectatorSettings,
)
from games.permissions import AFTERLIFE, can_moderate, in_afterlife
from games.remembered import remembered
from games.selectors import game_seats, label_of, room_key, room_page, room_ref, thread_page
from games.selectors.log import by_phase, events_all
from games.selectors.rooms import ROOM_ORDER, room_members
from games.selectors.seats import card_rows, display_names

from .delay import Cut, spectator_cut
from .services import ADDRESS_DAYS

# Who opens the spectators' page: a spectator, the moderator, and in Werewolf a dead player
# when the host let the dead see it.
SPECTATOR, MODERATOR, DEAD = "spectator", "moderator", "dead"


def choices_key(game_id: int) -> str:
    return f"spectators:choices:{game_id}"


def choices_of(game: Game) -> SpectatorSettings | None:
    """The host's choices (None: spectators were never allowed), kept in the cache: every
    game page asks them (panels.game_spectate); receivers.connect forgets them on a change."""
    return remembered(
        choices_key(game.pk), lambda: SpectatorSettings.objects.filter(game=game).first()
    )


def is_following(game: Game, user) -> bool:
    return (
        user.is_authenticated
        and Spectator.objects.filter(game=game, user=user, left_at__isnull=True).exists()
    )


def page_viewer(game: Game, user, choices: SpectatorSettings | None) -> str | None:
    """Which of SPECTATOR, MODERATOR, DEAD `user` opens `game`'s spectators' page as, or
    None (a 404). A player, replaced or not, is none of them; a dead Werewolf player is
    DEAD only while the game runs and the host allowed it (after the end the reveal shows
    everyone everything)."""
    if choices is None or not choices.allowed or not user.is_authenticated:
        return None
    if can_moderate(game, user):
        return MODERATOR
    if is_following(game, user):
        return SPECTATOR
    if choices.dead_see and game.status == Game.Status.RUNNING:
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is not None and in_afterlife(engine_state(game), seat.name):
            return DEAD
    return None


def thread_reader(game: Game, user) -> str | None:
    """Who reads the spectators' thread: its spectators (who write in it) and the
    moderator (who reads it). Never a player, dead or replaced, not even after the end:
    the spectators wrote to each other."""
    if not user.is_authenticated:
        return None
    if is_following(game, user):
        return SPECTATOR
    if can_moderate(game, user):
        return MODERATOR
    return None


# --- the spectators' page ------------------------------------------------------------------
@dataclass
class RoomLine:
    key: str  # the engine's meeting key: never shown (pages use `ref`)
    ref: str
    label: str
    posts: int
    members: list


@dataclass
class SpectatorPage:
    game: Game
    viewer: str
    cut: Cut | None
    names: dict
    cards: list = field(default_factory=list)  # CardRow per seat, as of the cut
    log: list = field(default_factory=list)  # (phase, [events]) before the cut
    rooms: list = field(default_factory=list)  # RoomLine: every private thread, as of the cut


def _room_keys(game: Game, cut: Cut) -> dict:
    """Every private thread of the game as of the cut, with its posts then."""
    posts = Post.objects.filter(game=game).exclude(thread="public")
    if cut.phases is not None:
        posts = posts.filter(phase__in=cut.phases)
    counts = dict(posts.values_list("thread").annotate(n=Count("id")))
    keys = set(counts)
    if game.status == Game.Status.RUNNING:
        keys |= set(cut.state.meetings())
        if any(in_afterlife(cut.state, s.name) for s in cut.state.seats):
            keys.add(AFTERLIFE)
    return {k: counts.get(k, 0) for k in keys}


def _room_order(game, key):
    base = key.split("-")[0]
    return (ROOM_ORDER.index(base) if base in ROOM_ORDER else len(ROOM_ORDER), room_ref(game, key))


def spectator_page(game: Game, viewer: str, choices: SpectatorSettings) -> SpectatorPage:
    """The spectators' page of `game` for `viewer`: every card, every room and the whole
    log, cut at the host's delay (the moderator's view too, so the host sees what the
    spectators see)."""
    seats = game_seats(game)
    names = display_names(seats)
    cut = spectator_cut(game, choices.delay)
    page = SpectatorPage(game=game, viewer=viewer, cut=cut, names=names)
    if cut is None:
        return page
    page.cards = card_rows(game, seats, cut.state)
    page.log = by_phase([e for e in events_all(game) if cut.shows_event(e.index)])
    counted = _room_keys(game, cut)
    page.rooms = [
        RoomLine(k, room_ref(game, k), label_of(game, k), counted[k], _members(game, cut, k))
        for k in sorted(counted, key=lambda k: _room_order(game, k))
    ]
    return page


def _members(game, cut, key):
    return room_members(game, cut.state, key)


def spectator_room(game: Game, ref: str, choices: SpectatorSettings, *, page=1):
    """(room page, cut) of the room whose id is `ref` among those the spectators' page
    lists, as of the cut; None for any other id (a 404)."""
    cut = spectator_cut(game, choices.delay)
    if cut is None:
        return None
    key = room_key(game, ref, _room_keys(game, cut))
    if key is None:
        return None
    state = cut.state if game.status == Game.Status.RUNNING else None
    room = room_page(game, key, state=state, page=page)
    if cut.phases is not None:
        # The posts a spectator sees are the thread's first ones (phases come in order).
        last = (
            Post.objects.filter(game=game, thread=key, phase__in=cut.phases).aggregate(
                n=Max("number")
            )["n"]
            or 0
        )
        room.posts = thread_page(game, page=page, thread=key, names=room.names, last=last)
        room.events = [
            (phase, shown)
            for phase, events in room.events
            if (shown := [e for e in events if cut.shows_event(e.index)])
        ]
    for row in room.posts.rows or ():
        # The permalink stays on this page (the core's is the members' room, a 404 here).
        row["url"] = f"?{room.posts.query}#p{row['number']}"
    return room, cut


# --- the spectators' thread --------------------------------------------------------------
POSTS_SHOWN = 200


def thread_posts(game: Game) -> list[SpectatorPost]:
    """The spectators' thread, its last POSTS_SHOWN posts, oldest first."""
    rows = SpectatorPost.objects.filter(game=game).select_related("author").order_by("-number")
    return list(reversed(rows[:POSTS_SHOWN]))


# --- the desk ------------------------------------------------------------------------------
@dataclass
class DeskSpectator:
    name: str
    joined_at: object
    left_at: object
    shares_with: list  # the players' names who signed in from one of their addresses lately


def desk_spectators(game: Game, now=None) -> list[DeskSpectator]:
    """The game's spectators, each with the players (current seats) who signed in from an
    address they signed in from within ADDRESS_DAYS: three queries."""
    now = now or timezone.now()
    rows = list(Spectator.objects.filter(game=game).select_related("user"))
    if not rows:
        return []
    since = now - timedelta(days=ADDRESS_DAYS)
    seats = {s.user_id: s for s in Seat.objects.filter(game=game).select_related("user")}
    addresses = SignInAddress.objects.filter(
        seen_at__gte=since, user_id__in=[*seats, *(r.user_id for r in rows)]
    ).values_list("user_id", "digest")
    by_digest: dict[str, set] = {}
    for user_id, digest in addresses:
        by_digest.setdefault(digest, set()).add(user_id)
    out = []
    for row in rows:
        shared = set()
        for users in by_digest.values():
            if row.user_id in users:
                shared |= {u for u in users if u in seats}
        out.append(
            DeskSpectator(
                row.user.player_name,
                row.joined_at,
                row.left_at,
                sorted(seats[u].user.player_name for u in shared),
            )
        )
    return out
