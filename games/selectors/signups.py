"""Sign-ups: how many finished games a member has played (the bar a game may set), and
what an open game's page says about signing up."""

from dataclasses import dataclass

from ..models import Game, Seat, SeatTenure
from ..narration.signups import too_few_games
from ..permissions import can_moderate
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
    refusal: str = ""  # why the viewer may not sign up, in words ("" when they may)

    @property
    def full(self) -> bool:
        return self.filled >= self.seats


def signup_panel(game: Game, user, filled: int, seated: bool) -> SignupPanel:
    """An open game's sign-up facts for `user`, who has `seated` a seat among `filled`:
    whether they could sign up now, and if not why (one query when the game asks for
    finished games and the viewer is a member without a seat; none otherwise)."""
    panel = SignupPanel(filled=filled, seats=game.seats_count)
    if seated or not user.is_authenticated or can_moderate(game, user):
        return panel
    if game.min_finished_games:
        played = finished_games_count(user)
        if played < game.min_finished_games:
            panel.refusal = too_few_games(game.min_finished_games, played)
    return panel


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
