"""The lobby (open, running and finished games) and the home page; both tell a signed-in
player which of their games await their vote or action (issue 31)."""

from django.shortcuts import render
from django.urls import path

from games import panels
from games.selectors import games_awaiting, lobby_games, lobby_mine


def game_list(request):
    games = lobby_games()
    mine, awaiting = lobby_mine(request.user)  # one query for both
    return render(
        request,
        "games/game_list.html",
        {
            "open_games": games["open"],
            "running_games": games["running"],
            "finished_games": games["finished"],
            "my_games": mine,
            # What the capabilities show beside each game ("N new": one query for them all).
            "panels": panels.collect(panels.LOBBY, request=request, user=request.user, games=games),
            "can_host": request.user.has_perm("games.add_game"),
            "awaiting": awaiting,
        },
    )


def home(request):
    return render(request, "home.html", {"awaiting": games_awaiting(request.user)})


urlpatterns = [
    path("games/", game_list, name="game_list"),
]
