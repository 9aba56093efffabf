"""What the anonymous games read: a game's choice, and the members behind its aliases
(the moderator's)."""

from games.models import AnonymousGame, Seat


def anonymity_of(game) -> AnonymousGame | None:
    return AnonymousGame.objects.filter(game=game).first()


def members_behind(game) -> dict[int, str]:
    """Occupant's user id -> their player name, for each aliased seat: the desk's and the
    reveal's "Elm — Ann"."""
    seats = Seat.objects.filter(game=game).exclude(alias="").select_related("user")
    return {s.user_id: s.user.player_name for s in seats}
