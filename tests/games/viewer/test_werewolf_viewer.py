"""The viewer of a finished Werewolf game (issue 31): the pack's room is the pack's, and the
dead see the graveyard and no more than the living (WW-17) in their seat's view, as on
their live pages; everything shows the roles; the last step is the village's win."""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.viewer.narration import view_labels
from games.viewer.selectors import viewer_page
from tests.games.afterlife_cast import lynch, page_text
from tests.games.conftest import make_game
from tests.games.test_noninterference import WOLF_CAST, _refresh, _users

pytestmark = pytest.mark.django_db

PACK_POST = "Pack-plan-3141"
GRAVE_POST = "Grave-word-2718"


@pytest.fixture
def wolf_game():
    u = _users(WOLF_CAST)
    game = make_game(u["mod"], u, cast=WOLF_CAST, ruleset="werewolf")
    lynch(_refresh(game), u, "gus")  # WW-1: Day 1 first; Gus is dead
    services.room_post(game=_refresh(game), user=u["bob"], room="pack", body=f"{PACK_POST} Dan.")
    services.room_post(game=_refresh(game), user=u["gus"], room="afterlife", body=GRAVE_POST)
    for wolf in ("bob", "cat"):
        services.action_submit(game=_refresh(game), user=u[wolf], action="pack", target="dan")
    services.phase_advance(game=_refresh(game), by=u["mod"])  # Day 2: Dan is dead
    lynch(_refresh(game), u, "bob")
    services.action_submit(game=_refresh(game), user=u["cat"], action="pack", target="eve")
    services.phase_advance(game=_refresh(game), by=u["mod"])  # Day 3: Eve is dead
    for voter in ("ann", "fay"):  # the last wolf lynched: the village wins
        services.vote_cast(game=_refresh(game), user=u[voter], target="cat")
    game = _refresh(game)
    assert game.status == "finished" and game.winner
    return game


def _texts(game, view):
    client, steps = Client(), viewer_page(game, view, 1, view_labels()).steps
    pages = []
    for n in range(1, steps + 1):
        response = client.get(reverse("viewer_step", args=[game.pk, view, n]))
        assert response.status_code == 200, (view, n)
        pages.append(page_text(response.content.decode()))
    return pages


def test_a_werewolf_games_views_keep_the_pack_and_the_graveyard_theirs(wolf_game):
    everything = _texts(wolf_game, "everything")
    assert any(PACK_POST in t for t in everything) and any(GRAVE_POST in t for t in everything)
    assert "Werewolf" in everything[-1] and "Seer" in everything[-1]
    wolf = _texts(wolf_game, "seat-bob")
    assert any(PACK_POST in t for t in wolf)
    assert not any(GRAVE_POST in t for t in wolf[:3])  # Bob was alive then
    dead = _texts(wolf_game, "seat-gus")
    assert any(GRAVE_POST in t for t in dead)
    assert not any(PACK_POST in t for t in dead)  # WW-17: no more than the living
    public = _texts(wolf_game, "public")
    assert not any(PACK_POST in t or GRAVE_POST in t for t in public)
