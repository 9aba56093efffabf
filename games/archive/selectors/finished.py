"""The archive (issue 16): finished games, newest first, searchable by player, by a card
in the deal, by winner, by rules and by when they finished. Only finished games are ever
read: a running game's deal and seats' cards are nobody's business but its own.

A page is three queries whatever it holds: the games (one more row than the page shows,
to know whether another page follows, so no COUNT), their players and their rooms.
"""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import player_key_for
from games.models import Assignment, Game, Seat, SeatTenure
from games.selectors.rooms import finished_room_links

ARCHIVE_PAGE_SIZE = 20


@dataclass(frozen=True)
class ArchiveFilter:
    """What the archive's search asked for; empty fields ask nothing."""

    player: str = ""  # a player name, in any case: anyone who held a seat, replaced or not
    card: str = ""  # a character, player type or Werewolf role key dealt to some seat
    winner: str = ""  # Game.winner: "village", "witches", "werewolves", …
    ruleset: str = ""
    finished_from: date | None = None  # in the viewer's time zone, both days included
    finished_to: date | None = None


@dataclass
class ArchiveRow:
    game: Game
    players: list  # (player name, player key) in seat order: who holds each seat now
    rooms: list  # rooms.RoomLink: every private thread, open to all now


@dataclass
class ArchivePage:
    rows: list
    number: int
    has_previous: bool
    has_next: bool
    filters: ArchiveFilter = field(default_factory=ArchiveFilter)


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def archived_games(filters: ArchiveFilter):
    """The finished games `filters` asks for, newest first (a queryset)."""
    games = Game.objects.filter(status=Game.Status.FINISHED).select_related("host")
    if filters.player:
        key = player_key_for(filters.player.strip())
        seats = Seat.objects.filter(game=OuterRef("pk"), user__player_key=key)
        tenures = SeatTenure.objects.filter(seat__game=OuterRef("pk"), user__player_key=key)
        games = games.filter(Exists(seats) | Exists(tenures))
    if filters.card:
        k = filters.card
        dealt = Assignment.objects.filter(seat__game=OuterRef("pk")).filter(
            Q(character=k) | Q(type=k) | Q(role=k)
        )
        games = games.filter(Exists(dealt))
    if filters.winner:
        games = games.filter(winner=filters.winner)
    if filters.ruleset:
        games = games.filter(ruleset=filters.ruleset)
    if filters.finished_from:
        games = games.filter(finished_at__gte=_start_of(filters.finished_from))
    if filters.finished_to:
        games = games.filter(finished_at__lt=_start_of(filters.finished_to + timedelta(days=1)))
    return games.defer("deal").order_by("-finished_at", "-pk")


def archive_page(filters: ArchiveFilter, page: int = 1) -> ArchivePage:
    """One page of the archive: the games with their players and their rooms."""
    page = max(page, 1)
    start = (page - 1) * ARCHIVE_PAGE_SIZE
    games = list(archived_games(filters)[start : start + ARCHIVE_PAGE_SIZE + 1])
    has_next = len(games) > ARCHIVE_PAGE_SIZE
    games = games[:ARCHIVE_PAGE_SIZE]
    players = {}
    seats = (
        Seat.objects.filter(game__in=[g.pk for g in games])
        .order_by("position", "pk")
        .values_list("game", "user__player_name", "user__player_key")
    )
    for game_id, name, key in seats:
        players.setdefault(game_id, []).append((name, key))
    rooms = finished_room_links(games) if games else {}
    return ArchivePage(
        rows=[ArchiveRow(g, players.get(g.pk, []), rooms.get(g.pk, [])) for g in games],
        number=page,
        has_previous=page > 1,
        has_next=has_next,
        filters=filters,
    )
