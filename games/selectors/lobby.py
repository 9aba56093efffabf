"""The lobby: the site's games by status, which of them the viewer plays in, and which
await their vote or action (issue 31, on the home page too)."""

from dataclasses import dataclass

from django.db.models import Count

from games import turns

from ..mapping import engine_state
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


@dataclass(frozen=True)
class Awaited:
    """A running game whose phase waits for the viewer (games/turns.py `awaited`, as the
    deadline reminders ask): their day vote, or by night their action."""

    game: Game
    night: bool


def games_awaiting(user) -> list[Awaited]:
    """The running games that wait for `user`'s vote or night action, for their eyes
    only (the home page, the lobby). One query for their seats; each game's state comes
    from the cache (mapping.engine_state), as the game page's does."""
    return lobby_mine(user)[1]


def lobby_mine(user) -> tuple[set[int], list[Awaited]]:
    """The ids of the games `user` has a seat in (lobby_user_games) and those of them that
    await them (games_awaiting), in the one query the lobby had for the first."""
    if not user.is_authenticated:
        return set(), []
    seats = Seat.objects.filter(user=user).select_related("game").order_by("game_id")
    mine, found = set(), []
    for seat in seats:
        mine.add(seat.game_id)
        if seat.game.status != Game.Status.RUNNING:
            continue
        state = engine_state(seat.game)
        if turns.awaited(state, seat.name):
            found.append(Awaited(seat.game, state.night))
    return mine, found
