"""A player's public profile (issue 16): open to everyone, signed in or not."""

from django.shortcuts import render
from django.urls import path

from games.selectors.profiles import profile_page

from .access import get_player_for_user


def player_profile(request, key):
    player = get_player_for_user(request, key)
    return render(request, "games/profile.html", {"page": profile_page(player)})


# <slug:key>: a player key is letters, digits and underscores (accounts.validators).
urlpatterns = [
    path("players/<slug:key>/", player_profile, name="player_profile"),
]
