"""The final reveal (W-71, WW-16) and the game record download."""

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.cache import never_cache

from games.selectors import record_json, reveal_page

from .access import get_finished_game_for_user, get_record_game_for_user


def reveal(request, game_id):
    game = get_finished_game_for_user(request, game_id)
    return render(request, "games/reveal.html", {"game": game, "page": reveal_page(game)})


@never_cache
def record(request, game_id):
    """The game record (FORMAT.md): `manage.py play_record` replays it to the result."""
    game = get_record_game_for_user(request, game_id)
    body = record_json(game)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game.ruleset}-game-{game.pk}.json"'
    return response


urlpatterns = [
    path("games/<id:game_id>/reveal/", reveal, name="game_reveal"),
    path("games/<id:game_id>/record.json", record, name="game_record"),
]
