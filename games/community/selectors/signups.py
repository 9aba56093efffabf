"""Sign-ups: how many finished games a member has played (the bar a game may set), and
what an open game's page says about signing up."""

from dataclasses import dataclass

from games.models import Game, Seat, SeatTenure
from games.permissions import can_moderate

from ..narration import too_few_games
from .absences import absences_shown


def finished_games_count(user) -> int:
    """The games `user` played to the end: finished games in which they held a seat and
    were not replaced out of it (a player who came in as a replacement counts). One query."""
    return (
        SeatTenure.objects.filter(user=user, seat__game__status=Game.Status.FINISHED)
        .exclude(left=SeatTenure.Left.REPLACED)
        .values("seat__game_id")
        .distinct()
        .count()
    )


@dataclass
class SignupPanel:
    filled: int
    seats: int


def signup_refusal(game: Game, user, seated: bool) -> str | None:
    """Why `user` may not sign up for an open game now, in words, or None when they may
    (one query when the game asks for finished games and the viewer is a member without
    a seat; none otherwise). A full game, a moderator and a stranger are the core's."""
    if seated or not user.is_authenticated or can_moderate(game, user):
        return None
    if game.min_finished_games:
        played = finished_games_count(user)
        if played < game.min_finished_games:
            return too_few_games(game.min_finished_games, played)
    return None


@dataclass
class SignupRow:
    name: str  # the player's name
    joined_at: object
    away: object  # absences.Away (with its note: this is the moderator's), or None


@dataclass
class SignupDesk:
    """An open game on the moderator's desk: who signed up, when, and who will be away."""

    filled: int
    seats: int
    rows: list


def signups_desk(game: Game, now) -> SignupDesk:
    """The desk of an open game: its players in sign-up order, each with their absence
    now or to come (note included). Two queries."""
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("joined_at", "pk"))
    away = absences_shown([s.user_id for s in seats], now)
    rows = [SignupRow(s.user.player_name, s.joined_at, away.get(s.user_id)) for s in seats]
    return SignupDesk(filled=len(seats), seats=game.seats_count, rows=rows)
