"""The names a mention may link: the game's players now, and where each one's link leads."""

from django.db.models import Q
from django.urls import reverse

from games.models import Game, Seat

from ..mentions import Target


def mention_targets(game: Game, keys) -> dict[str, Target]:
    """The players of `game` among player keys `keys` (the seats' occupants now), each with
    where a mention links: their line in the game page's player list. One query; none
    when there are no keys."""
    if not keys:
        return {}
    # An aliased seat answers to its alias alone (its name is the alias's key): a member's
    # own name must not find their seat in an anonymous game (issue 31).
    named = Q(alias="", user__player_key__in=list(keys)) | (~Q(alias="") & Q(name__in=list(keys)))
    seats = Seat.objects.filter(named, game=game).select_related("user")
    base = reverse("game_detail", args=[game.pk])
    return {mention_key(s): Target(s.shown_name, f"{base}#player-{s.name}") for s in seats}


def mention_key(seat: Seat) -> str:
    """The key a mention of `seat` is written with: its alias's (its name), or its player's."""
    return seat.name if seat.alias else seat.user.player_key
