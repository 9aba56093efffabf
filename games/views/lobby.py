"""The lobby: open, running and finished games."""

from django.shortcuts import render
from django.urls import path

from games.selectors import lobby_games, lobby_user_games
from games.selectors.reading import lobby_news


def game_list(request):
    games = lobby_games()
    listed = [g for status in ("running", "finished") for g in games[status]]
    return render(
        request,
        "games/game_list.html",
        {
            "open_games": games["open"],
            "running_games": games["running"],
            "finished_games": games["finished"],
            "my_games": lobby_user_games(request.user),
            # "N new" beside the viewer's games: one query for them all (issue 15).
            "read_news": lobby_news(request.user, listed),
            "can_host": request.user.has_perm("games.add_game"),
        },
    )


urlpatterns = [
    path("games/", game_list, name="game_list"),
]
