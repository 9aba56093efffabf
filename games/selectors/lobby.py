"""The lobby: the site's games by status, and which of them the viewer plays in."""

from django.db.models import Count

from ..models import Game, Seat


def lobby_games() -> dict[str, list[Game]]:
    """Open, running and finished games, with their filled seats; a list per status."""
    games = list(
        Game.objects.select_related("host")
        .annotate(filled=Count("seats"))
        .order_by("-created_at")[:300]
    )
    by_status = {s: [] for s in Game.Status.values}
    for g in games:
        by_status[g.status].append(g)
    return by_status


def lobby_user_games(user) -> set[int]:
    """Ids of the games `user` has a seat in (to mark them in the lobby)."""
    if not user.is_authenticated:
        return set()
    return set(Seat.objects.filter(user=user).values_list("game_id", flat=True))
