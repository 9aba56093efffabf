"""The names a mention may link: the game's players now, and where each one's link leads."""

from django.urls import reverse

from games.models import Game, Seat

from ..mentions import Target


def mention_targets(game: Game, keys) -> dict[str, Target]:
    """The players of `game` among player keys `keys` (the seats' occupants now), each with
    where a mention links: their line in the game page's player list. One query; none
    when there are no keys."""
    if not keys:
        return {}
    seats = Seat.objects.filter(game=game, user__player_key__in=list(keys)).select_related("user")
    base = reverse("game_detail", args=[game.pk])
    return {s.user.player_key: Target(s.user.player_name, f"{base}#player-{s.name}") for s in seats}
