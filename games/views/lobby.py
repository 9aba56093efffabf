"""The lobby: open, running and finished games."""
from django.shortcuts import render
from django.urls import path


def game_list(request):
    return render(request, "games/game_list.html")


urlpatterns = [
    path("games/", game_list, name="game_list"),
]
