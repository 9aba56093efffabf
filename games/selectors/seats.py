"""The seats of a game: who sits where, the names the pages show, what everyone knows of
each seat, and the private panel of one seat.

The public reads (`seats_public`) load seats without their assignments, so no card is
ever in a public page's context; `game_seats` (with the cards) is for the moderator, the
afterlife and the reveal.
"""

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q

from games.engine import ALIVE, LAST_ACT, REMOVED, coming_options, options_for

from ..mapping import engine_state
from ..models import Game, GameEvent, GameInput, Post, Seat
from ..narration.summaries import replaced_name


def seats_public(game: Game) -> list[Seat]:
    """Seats in order with their occupants, without their cards."""
    return list(Seat.objects.filter(game=game).select_related("user").order_by("position", "pk"))


# Only what the game page reads of a seat and its player: a whole Seat and User for each
# of 48 seats was a tenth of the game page's CPU.
SEAT_FIELDS = ("id", "game_id", "user_id", "name", "alias", "position",
               "user__id", "user__player_name", "user__player_key",
               "posts_count", "posts_day_count", "posts_day", "last_post_at")  # fmt: skip


def seats_listed(game: Game):
    """seats_public's seats (the same rows, in the same order, without their cards) as a
    QuerySet of what a list of the players reads, SEAT_FIELDS: unread, so that a page may
    add to its one query (the game page's GAME_PAGE_SEATS)."""
    return (
        Seat.objects.filter(game=game)
        .select_related("user")
        .only(*SEAT_FIELDS)
        .order_by("position", "pk")
    )


def game_seats(game: Game) -> list[Seat]:
    """Seats in order with their occupants and cards: never render those to players."""
    return list(
        Seat.objects.filter(game=game)
        .select_related("user", "assignment")
        .order_by("position", "joined_at")
    )


def display_names(seats) -> dict[str, str]:
    """Seat name -> the current occupant's player name (a replacement shows the new name),
    or the seat's alias in an anonymous game (which a replacement keeps)."""
    return {s.name: s.shown_name for s in seats}


def game_display_names(game: Game) -> dict[str, str]:
    """display_names of every seat of `game`."""
    return display_names(seats_public(game))


# A moderator's replacement as an input's step (services/moderation.py, W-72).
REPLACE_INPUT = Q(seat__isnull=True, step__moderator="replace")


class NamesThen:
    """The names as they were at an event (by its index): a seat replaced since shows
    "Ann (replaced by Bob)", the player who sat there then and the one who does now."""

    def __init__(self, names: dict, cuts: dict, earlier: dict):
        self.names = names  # seat -> today's player name
        self.cuts = cuts  # seat -> the indexes of its `replaced` events, in order
        self.earlier = earlier  # (seat, k) -> the name of its player before replacement k+1
        self.memo = {}

    def at(self, index: int) -> dict:
        """Seat -> name as of event `index`."""
        eras = tuple(bisect_left(cut, index) for cut in self.cuts.values())
        if not any(k < len(cut) for k, cut in zip(eras, self.cuts.values(), strict=True)):
            return self.names  # nobody sitting then has been replaced since
        found = self.memo.get(eras)
        if found is None:
            found = self.memo[eras] = dict(self.names)
            for (seat, cut), k in zip(self.cuts.items(), eras, strict=True):
                old, now = self.earlier.get((seat, k)), self.names.get(seat, seat)
                if k < len(cut) and old and old != now:
                    found[seat] = replaced_name(old, now)
        return found


def names_then(game: Game, names: dict, replaced) -> NamesThen:
    """The names as they were at each event, from the game's public `replaced` events
    (`replaced`: (index, data, time) in order). Two queries when there were replacements,
    none otherwise: a replaced seat's inputs (each is its player's) tell who sat there
    between two replacements, and its posts (by their time) who said nothing else."""
    cuts, times = {}, {}
    for index, data, at in replaced:
        cuts.setdefault(data.get("player"), []).append(index)
        times.setdefault(data.get("player"), []).append(at)
    earlier = {}
    if cuts:
        era = dict.fromkeys(cuts, 0)
        # An aliased seat keeps its name through a replacement: its players stay unnamed.
        rows = (
            GameInput.objects.filter(game=game)
            .filter(Q(seat__name__in=list(cuts), seat__alias="", by__isnull=False) | REPLACE_INPUT)
            .order_by("index")
            .values_list("seat__name", "by__player_name", "step")
        )
        for seat, by, step in rows:
            if seat is None:
                if step.get("player") in era:
                    era[step["player"]] += 1
            else:
                earlier.setdefault((seat, era[seat]), by)
        posts = Post.objects.filter(
            game=game, seat__name__in=list(cuts), seat__alias="", kind=Post.Kind.PLAYER
        )
        for seat, by, at in posts.values_list("seat__name", "author__player_name", "created_at"):
            earlier.setdefault((seat, bisect_right(times[seat], at)), by)
    return NamesThen(names, cuts, earlier)


def public_status(state, name) -> str:
    """What everyone knows of a seat: alive, dead or removed. The offstage (a last act, the
    Magician's fake death) were announced dead, so they read as dead here (W-14a, W-41)."""
    if state is None:
        return ALIVE
    status = state.seat(name).status
    if status == ALIVE:
        return "alive"
    return "removed" if status == REMOVED else "dead"


LAST_ACT_CHOSEN = "last_act_chosen"  # a card table's status only, never the engine's


@dataclass
class CardRow:
    seat: Seat
    status: str  # the engine's: the offstage show as such (W-14a, W-41)
    lives: int | None = None
    cards: int | None = None  # Archangel cards


def card_rows(game: Game, seats, state) -> list[CardRow]:
    """Every seat with its status, lives and Archangel cards (for those who see all)."""
    rows = []
    for seat in seats:
        es = state.seat(seat.name)
        status = es.status
        if status == LAST_ACT and "ability" in state.standing(seat.name):
            # Chosen by night, the last act waits for the night's resolution (W-14): the
            # holder stays offstage until then, but it is no longer unused. Only those who
            # see every action as it happens read this table (the afterlife, W-17; the desk).
            status = LAST_ACT_CHOSEN
        row = CardRow(seat, status)
        if game.ruleset == Game.Ruleset.WITCHHUNT:
            row.lives, row.cards = es.lives, es.cards
        rows.append(row)
    return rows


def seat_knowledge(game: Game, seat: Seat) -> list[GameEvent]:
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
    coming: tuple = ("", [])  # (when, actions): what opens later (engine coming_options)


def seat_panel(game: Game, seat: Seat, state=None) -> SeatPanel:
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
    running = game.status == "running"
    options = options_for(state, seat.name) if running else []
    return SeatPanel(
        seat=seat,
        living=es.living,
        status=es.status,
        options=options,
        standing=state.standing(seat.name),
        knowledge=seat_knowledge(game, seat),
        extra=extra,
        coming=_coming(game, seat, state, options) if running else ("", []),
    )


def _coming(game, seat, state, options):
    # A what-if replay of the rest of the phase (some 15 ms for a seat of 48): it changes
    # only with the game's inputs, and a player reloads the role page far more often.
    key = f"coming:{game.pk}:{game.seed}:{game.inputs_count}:{seat.name}"
    found = cache.get(key)
    if found is None:
        found = coming_options(state, seat.name, options)
        cache.set(key, found, 24 * 3600)
    return tuple(found)
