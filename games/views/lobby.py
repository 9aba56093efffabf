"""The lobby: open, running and finished games."""

from django.shortcuts import render
from django.urls import path

from games import panels
from games.selectors import lobby_games, lobby_user_games


def game_list(request):
    games = lobby_games()
    return render(
        request,
        "games/game_list.html",
        {
            "open_games": games["open"],
            "running_games": games["running"],
            "finished_games": games["finished"],
            "my_games": lobby_user_games(request.user),
            # What the capabilities show beside each game ("N new": one query for them all).
            "panels": panels.collect(panels.LOBBY, request=request, user=request.user, games=games),
            "can_host": request.user.has_perm("games.add_game"),
        },
    )


urlpatterns = [
    path("games/", game_list, name="game_list"),
]
