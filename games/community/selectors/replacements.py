"""The replacement list's pages (issue 16): a member's places on the list, the seats
offered to them, the seats wanted in running games, and one offer. Public facts only: a
game, its phase and deadline, a seat by its player's name; never a card or an alignment
(the cards go to whoever takes the seat, by the role page and email, as for any
replacement)."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from games.models import Game, ReplacementOffer, ReplacementVolunteer, Seat
from games.permissions import can_moderate, has_held_seat

# The "one game" choice and the wanted seats are listed from this many games at most.
GAMES_SHOWN = 100


@dataclass
class WantedSeat:
    game: Game
    seat: str  # the seat's name (the form's value)
    player: str  # who sits there now
    since: datetime
    mine: bool  # the viewer plays in or moderates the game: they cannot volunteer
    offer: int | None  # the viewer's open offer for it


@dataclass
class OfferRow:
    pk: int
    seat_id: int
    game: Game
    player: str
    created_at: datetime


@dataclass
class ReplacementListPage:
    entries: list  # the viewer's ReplacementVolunteer rows, "any game" first
    offers: list[OfferRow]  # open offers to the viewer
    wanted: list[WantedSeat]
    games: list[Game]  # games the viewer may volunteer for (not playing, not moderating)


def _games_held(user):
    """The games in which `user` holds or has held a seat (issue 25: they may take no other
    seat there): a subquery of the seats and the tenures."""
    return Game.objects.filter(Q(seats__user=user) | Q(seats__tenures__user=user)).values("pk")


def replacement_list_page(user) -> ReplacementListPage:
    """The replacement list page: five queries, however many games run. A game in which
    the viewer holds or has held a seat is theirs: no offer or list entry for it is shown
    (one made before they took a seat there cannot be accepted), nor is it offered."""
    held = _games_held(user)
    entries = sorted(
        ReplacementVolunteer.objects.filter(user=user)
        .exclude(game__in=held)
        .select_related("game"),
        key=lambda e: (e.game_id is not None, e.created_at),
    )
    offers = [
        OfferRow(o.pk, o.seat_id, o.seat.game, o.seat.shown_name, o.created_at)
        for o in ReplacementOffer.objects.filter(
            user=user, status=ReplacementOffer.Status.OPEN, seat__game__status=Game.Status.RUNNING
        )
        .exclude(seat__game__in=held)
        .select_related("seat__game", "seat__user")
    ]
    offered = {o.seat_id: o.pk for o in offers}
    playing = set(held.values_list("pk", flat=True))
    wanted = [
        WantedSeat(
            s.game,
            s.name,
            s.shown_name,
            s.replacement_wanted_at,
            s.game_id in playing or can_moderate(s.game, user),
            offered.get(s.pk),
        )
        for s in Seat.objects.filter(
            game__status=Game.Status.RUNNING, replacement_wanted_at__isnull=False
        )
        .select_related("game", "user")
        .order_by("replacement_wanted_at", "pk")[:GAMES_SHOWN]
    ]
    games = [
        g
        for g in Game.objects.filter(status__in=(Game.Status.OPEN, Game.Status.RUNNING))
        .exclude(pk__in=playing)
        .order_by("-created_at")[:GAMES_SHOWN]
        if not can_moderate(g, user)
    ]
    return ReplacementListPage(entries, offers, wanted, games)


@dataclass
class OfferPage:
    offer: ReplacementOffer
    game: Game
    player: str  # the seat's player now: whom the taker replaces
    open: bool  # may still be accepted
    played: bool = False  # the viewer has held a seat of the game since (issue 25)


def offer_page(user, offer_id) -> OfferPage | None:
    """One offer to `user` (None for any other offer, or none): the game, its phase and
    deadline, the seat's player; one query, and one more for an open offer (whether the
    viewer has played in the game since it was made)."""
    offer = (
        ReplacementOffer.objects.filter(pk=offer_id, user=user)
        .select_related("seat__game", "seat__user")
        .first()
    )
    if offer is None:
        return None
    game, seat = offer.seat.game, offer.seat
    is_open = (
        offer.status == ReplacementOffer.Status.OPEN
        and game.status == Game.Status.RUNNING
        and seat.replacement_wanted_at is not None
    )
    # Issue 25: offered before they took (and left) a seat of this game.
    played = is_open and has_held_seat(game, user)
    return OfferPage(offer, game, seat.shown_name, is_open and not played, played)
