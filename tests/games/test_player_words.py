"""Cards named as a host names them: plurals in the pool form ("Village Spies"), articles in
sentences ("Martha was a Villager", "the Seer")."""

import re

import pytest
from django.urls import reverse

from games import services
from games.engine.rulesets.werewolf.roles import REPEATABLE, ROLES
from games.engine.rulesets.witchhunt.cards import CHARACTERS, TYPES
from games.forms import NewGameForm
from games.narration.labels import card_in_sentence
from tests.factories import UserFactory

POOL_LABELS = {
    "basic_villager": "Witchhunt: Basic Villagers",
    "holy_villager": "Witchhunt: Holy Villagers",
    "village_spy": "Witchhunt: Village Spies",
    "village_lover": "Witchhunt: Village Lovers",
    "elder_witch": "Witchhunt: Elder Witches",
    "junior_witch": "Witchhunt: Junior Witches",
}


def test_the_pool_counts_name_each_type_in_the_plural():
    form = NewGameForm()
    assert {key: form.fields[f"count_{key}"].label for key in TYPES} == POOL_LABELS


@pytest.mark.django_db
def test_the_new_game_page_shows_the_plurals(client):
    host = UserFactory(is_superuser=True)
    client.force_login(host)
    html = client.get(reverse("game_new")).content.decode()
    for label in POOL_LABELS.values():
        assert re.search(rf"<label[^>]*>{label}</label>", html), label
    assert "Spys" not in html and "Witchs" not in html


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("villager", "a Villager"),
        ("werewolf", "a Werewolf"),
        ("seer", "the Seer"),
        ("were_hamster", "the Were-Hamster"),
        ("priest", "the Priest"),
        ("moonlight_pagan", "the Moonlight Pagan"),
        ("elder_witch", "an Elder Witch"),
        ("village_spy", "a Village Spy"),
    ],
)
def test_a_card_in_a_sentence_has_the_article_a_host_says(key, words):
    assert card_in_sentence(key) == words


def test_every_card_has_an_article():
    for key, (_, name, _, _) in CHARACTERS.items():  # each character is in a game once
        assert card_in_sentence(key) == f"the {name}"
    for key, (_, label) in TYPES.items():  # a type is many players'
        article = "an" if label[0] in "AEIOU" else "a"
        assert card_in_sentence(key) == f"{article} {label}"
    for key, (_, name, _) in ROLES.items():
        assert card_in_sentence(key) == (f"a {name}" if key in REPEATABLE else f"the {name}")


@pytest.mark.django_db
def test_the_thread_says_martha_was_a_villager(client):
    """WW-3: a Werewolf game that shows the card of each death says it in a sentence."""
    host = UserFactory(player_name="Host", is_superuser=True)
    cast = [("Ann", "seer"), ("Bob", "werewolf"), ("Martha", "villager"), ("Dan", "villager")]
    users = {name: UserFactory(player_name=name) for name, _ in cast}
    game = services.game_create(
        host=host,
        ruleset="werewolf",
        title="Salem",
        seats_count=len(cast),
        seed=3,
        deal={"mode": "explicit", "cards": [{"role": r} for _, r in cast], "shuffle": False},
        options={"reveal_on_death": True},
    )
    for name, _ in cast:
        services.game_join(game=game, user=users[name])
    game = services.game_start(game=game, by=host)
    services.phase_advance(game=game, by=host)  # night 1
    game.refresh_from_db()
    martha = game.seats.get(user=users["Martha"]).name
    services.action_submit(game=game, user=users["Bob"], action="pack", target=martha)
    services.phase_advance(game=game, by=host)  # the morning

    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Martha was a Villager." in html
    assert "Martha was Villager" not in html
