"""FORMAT (revision 3) on the role page: the action form can carry a `choice` and a
`guess` for any ability, so a Seer's form posted with "poison" (or a Judge's with a guess)
is refused in the engine's words and nothing is stored; the Witch's potion still goes."""

import pytest
from django.urls import reverse

from games import services
from games.models import GameInput
from tests.games.conftest import make_game, users_for

pytestmark = pytest.mark.django_db

CAST = [
    ("Ann", "seer", ""),
    ("Bob", "werewolf", ""),
    ("Cat", "witch", ""),
    ("Dan", "villager", ""),
    ("Eve", "villager", ""),
    ("Fay", "villager", ""),
]


def _post(client, game, data):
    """The role page's action form posted; the messages the page then shows."""
    response = client.post(reverse("game_act", args=[game.pk]), data, follow=True)
    return [str(m) for m in response.context["messages"]]


def test_a_choice_on_an_ability_that_takes_none_is_refused_on_the_role_page(client, moderator):
    users = users_for(CAST)
    game = make_game(moderator, users, cast=CAST, ruleset="werewolf")
    services.phase_advance(game=game, by=moderator)
    game.refresh_from_db()
    inputs = GameInput.objects.filter(game=game).count()
    client.force_login(users["ann"])
    said = _post(client, game, {"action": "ability", "targets": ["bob"], "choice": "poison"})
    assert said == ["Your ability takes no choice."]
    assert GameInput.objects.filter(game=game).count() == inputs
    _post(client, game, {"action": "ability", "targets": ["bob"]})
    assert GameInput.objects.filter(game=game).count() == inputs + 1
    services.midnight_pass(game=game)
    client.force_login(users["cat"])  # the Witch (WW-7): her potions take their choice
    _post(client, game, {"action": "ability", "targets": ["dan"], "choice": "poison"})
    last = GameInput.objects.filter(game=game).order_by("index").last().step
    assert last == {"actor": "cat", "action": "ability", "targets": ["dan"], "choice": "poison"}


def test_a_guess_on_an_ability_that_takes_none_is_refused_on_the_role_page(
    client, cast_game, cast_users
):
    inputs = GameInput.objects.filter(game=cast_game).count()
    client.force_login(cast_users["bob"])  # the Judge (W-30): a pick, no guess
    said = _post(client, cast_game, {"action": "ability", "targets": ["ann"], "guess": "priest"})
    assert said == ["Your ability takes no guess."]
    assert GameInput.objects.filter(game=cast_game).count() == inputs
