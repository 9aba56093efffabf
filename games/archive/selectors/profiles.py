"""A player's public profile (issue 16): the games they sit in or sat in, what each
finished one dealt them and whether they won, win rates per team, replacements taken and
how reliably they stayed to the end.

Everyone may read a profile, so a running game shows only what its public thread shows:
the seat's public status (`seats.public_status`) and a card only where the game announced
it to everyone (a Werewolf death with reveal_on_death, a Witchhunt character revealed).
Cards are read for finished games alone. A seat's result is credited to whoever held it
at the end: a player replaced out is not credited with it (W-72).

The reads do not grow with the number of games: the seats, the tenures, the finished
seats' cards, the winners and the public reveals are one query each; the running games'
engine states come from the cache like any game page's.
"""

from dataclasses import dataclass, field

from django.db.models import Q

from games.mapping import engine_state
from games.models import Assignment, Game, GameEvent, Seat, SeatTenure
from games.narration.labels import card_label, cards_text, role_label
from games.selectors.seats import public_status

from ..narration import reliability_line, team_label, win_rate
from .outcomes import card_team, seat_won, winners_by_game

FINISHED_SHOWN = 25  # the newest finished games listed; the archive has them all
TEAM_ORDER = ("village", "witches", "werewolves")
# What a running game told everyone about a seat's cards (its public announcements).
PUBLIC_CARDS = Q(
    kind="public", audience=GameEvent.Audience.PUBLIC, data__event__in=("card", "reveal")
)


@dataclass
class GameEntry:
    game: Game
    seat: str  # the seat's name
    replacing: bool = False  # took the seat as a replacement
    replaced_out: bool = False  # left it to a replacement: the seat's result is not theirs
    status: str = ""  # a running game's public status of the seat: alive, dead, removed
    cards: str = ""  # a finished game's dealt cards; a running one's publicly announced
    team: str = ""  # a finished game's team key (outcomes.card_team)
    team_label: str = ""
    won: bool | None = None  # None: not theirs to claim (running, or replaced out)


@dataclass
class TeamRate:
    ruleset: str
    team: str
    label: str
    played: int
    won: int
    text: str  # "2 of 3 won (67%)"


@dataclass
class ProfilePage:
    player: object  # the User
    signed_up: list  # GameEntry: open games
    running: list  # GameEntry
    finished: list  # GameEntry, newest first, the first FINISHED_SHOWN
    finished_total: int
    rates: list  # TeamRate
    replacements_taken: int
    finished_count: int  # games played to the end
    replaced_out_count: int
    reliability: str = field(default="")


def _entries(player) -> dict[int, GameEntry]:
    """Every seat the player holds now or held, by seat id (a sign-up withdrawn before the
    start left no seat and no tenure: `game_leave` deletes both)."""
    entries = {}
    # An anonymous game's seat stays off the profile until the game ends (issue 31): it
    # would tie the member to their alias.
    hidden = Q(alias="") | Q(game__status=Game.Status.FINISHED)
    seats = Seat.objects.filter(hidden, user=player)
    for seat in seats.select_related("game").defer("game__deal"):
        entries[seat.pk] = GameEntry(seat.game, seat.name)
    tenures = (
        SeatTenure.objects.filter(user=player)
        .filter(Q(seat__alias="") | Q(seat__game__status=Game.Status.FINISHED))
        .select_related("seat__game")
        .defer("seat__game__deal")
    )
    for tenure in tenures:
        seat = tenure.seat
        entry = entries.get(seat.pk)
        if entry is None:  # no longer theirs: somebody took the seat over
            entry = entries[seat.pk] = GameEntry(seat.game, seat.name, replaced_out=True)
        entry.replacing |= tenure.replacing
    return entries


def _finish(entries: list[GameEntry], seat_ids: dict) -> None:
    """The finished games' cards, teams and (for those who held the seat at the end) results."""
    cards = {
        a["seat_id"]: a
        for a in Assignment.objects.filter(seat_id__in=list(seat_ids)).values(
            "seat_id", "character", "type", "role"
        )
    }
    winners = winners_by_game({e.game.pk for e in entries})
    for seat_id, entry in seat_ids.items():
        card = cards.get(seat_id)
        if card is None:
            continue
        ruleset = entry.game.ruleset
        if ruleset == Game.Ruleset.WEREWOLF:
            entry.cards = role_label(card["role"])
        else:
            entry.cards = cards_text(card)
        entry.team = card_team(
            ruleset, character=card["character"], type=card["type"], role=card["role"]
        )
        entry.team_label = team_label(entry.team)
        if not entry.replaced_out:
            entry.won = seat_won(winners.get(entry.game.pk, ()), entry.seat)


def _running(entries: list[GameEntry]) -> None:
    """The running games' public statuses and publicly announced cards."""
    if not entries:
        return
    announced = GameEvent.objects.filter(PUBLIC_CARDS, game_id__in=[e.game.pk for e in entries])
    shown = {}
    for game_id, data in announced.order_by("index").values_list("game", "data"):
        key = data.get("role") or data.get("character")
        if key:
            shown[(game_id, data.get("player"))] = key
    for entry in entries:
        if not entry.replaced_out:
            entry.status = public_status(engine_state(entry.game), entry.seat)
        key = shown.get((entry.game.pk, entry.seat))
        if key:
            entry.cards = role_label(key) if entry.game.ruleset == "werewolf" else card_label(key)


def _rates(entries: list[GameEntry]) -> list[TeamRate]:
    tally = {}
    for e in entries:
        if e.won is None or not e.team:
            continue
        played, won = tally.get((e.game.ruleset, e.team), (0, 0))
        tally[(e.game.ruleset, e.team)] = (played + 1, won + e.won)

    def order(key):
        ruleset, team = key
        return (ruleset != "witchhunt", TEAM_ORDER.index(team) if team in TEAM_ORDER else 9, team)

    return [
        TeamRate(ruleset, team, team_label(team), played, won, win_rate(won, played))
        for (ruleset, team), (played, won) in sorted(tally.items(), key=lambda kv: order(kv[0]))
    ]


def profile_page(player) -> ProfilePage:
    """`player`'s public profile: nothing a running game has not told everyone."""
    entries = _entries(player)
    by_status = {s: [] for s in Game.Status.values}
    for entry in entries.values():
        by_status[entry.game.status].append(entry)
    finished = by_status[Game.Status.FINISHED]
    _finish(finished, {sid: e for sid, e in entries.items() if e.game.status == "finished"})
    running = by_status[Game.Status.RUNNING]
    _running(running)
    finished.sort(key=lambda e: (e.game.finished_at or e.game.created_at, e.game.pk), reverse=True)
    running.sort(key=lambda e: (e.game.started_at or e.game.created_at, e.game.pk), reverse=True)
    to_the_end = sum(1 for e in finished if not e.replaced_out)
    replaced_out = sum(1 for e in entries.values() if e.replaced_out)
    return ProfilePage(
        player=player,
        signed_up=by_status[Game.Status.OPEN],
        running=running,
        finished=finished[:FINISHED_SHOWN],
        finished_total=len(finished),
        rates=_rates(finished),
        replacements_taken=sum(1 for e in entries.values() if e.replacing),
        finished_count=to_the_end,
        replaced_out_count=replaced_out,
        reliability=reliability_line(to_the_end, replaced_out),
    )
