"""A deal's problems in the reader's language: the engine's setup checks are refusals kept as
meaning (English when printed, as the records and the conformance cases say them), worded
on the new-game page from a small German catalog of the test's own (tests/catalog.py), the
cards they name and the host's own lines included."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.deal import deal_problems
from games.engine import setup_problems
from games.models import Game
from games.narration.refusals import refusal_words
from tests.catalog import german_catalog
from tests.games.test_views import NEW_GAME

CARD = "card"  # the context of a card's name (games/narration/card_names.py)
GERMAN = [  # tests/catalog.py's entries
    (
        "%(name)s: %(card)s is Holy and must be a Holy Villager (W-22)",
        "%(name)s: %(card)s ist heilig und muss ein Heiliger Dorfbewohner sein (W-22)",
    ),
    (
        "%(card)s is dealt twice (%(first)s and %(second)s); characters are unique",
        "%(card)s ist zweimal ausgeteilt (%(first)s und %(second)s); jeder Charakter ist einmalig",
    ),
    (
        "Witches must be fewer than Villagers (%(witches)s Witches, %(villagers)s Villagers)",
        "Es muss weniger Hexen als Dorfbewohner geben (%(witches)s Hexen, %(villagers)s "
        "Dorfbewohner)",
    ),
    (
        "fewer than two thirds Villagers (%(villagers)s of %(seats)s); the rules expect two "
        "thirds or more",
        "weniger als zwei Drittel Dorfbewohner (%(villagers)s von %(seats)s); die Regeln "
        "erwarten zwei Drittel oder mehr",
    ),
    ("Warning: %(problem)s", "Warnung: %(problem)s"),
    ("card %(number)s", "Karte %(number)s"),
    (CARD, "Priest", "Priester"),
    (CARD, "Gambler", "Glücksspieler"),
    ("werewolf role", "Seer", "Seherin"),
    (
        "%(card)s is dealt twice (%(first)s and %(second)s); it is a single card",
        "%(card)s ist zweimal ausgeteilt (%(first)s und %(second)s); es ist eine einzelne Karte",
    ),
    (
        (
            "the deal lists %(count)s card for %(seats)s seats",
            "the deal lists %(count)s cards for %(seats)s seats",
        ),
        (
            "das Blatt nennt %(count)s Karte für %(seats)s Plätze",
            "das Blatt nennt %(count)s Karten für %(seats)s Plätze",
        ),
    ),
    (
        (
            "Reminder times are between 1 and %(count)s hour.",
            "Reminder times are between 1 and %(count)s hours.",
        ),
        (
            "Erinnerungen liegen zwischen 1 und %(count)s Stunde.",
            "Erinnerungen liegen zwischen 1 und %(count)s Stunden.",
        ),
    ),
]


@pytest.fixture
def german(tmp_path, settings):
    """German active, from a catalog of the entries above compiled into LOCALE_PATHS."""
    german_catalog(tmp_path, GERMAN)
    settings.LOCALE_PATHS = [str(tmp_path)]  # Django drops its loaded catalogs on the change
    with translation.override("de"):
        yield


# Three seats, two Priests (W-22: Holy, and unique) and two Witches (W-23: too many).
CARDS = "priest basic_villager\npriest elder_witch\njudge elder_witch"
# Witches more than a third of the seats (W-23): a warning alone.
WARNED = (
    "gambler, basic villager\nRecluse basic_villager\njudge elder_witch\n"
    "survivalist basic_villager\nwizard junior_witch"
)


@pytest.mark.django_db
def test_a_deals_problems_read_in_german_on_the_new_game_page(client, host, german):
    host.language = "de"
    host.save(update_fields=["language"])
    client.force_login(host)
    response = client.post(reverse("game_new"), {**NEW_GAME, "seats_count": 3, "cards": CARDS})
    problems = [str(p) for p in response.context["form"].non_field_errors()]
    # The host's own lines ("Karte 1"), the cards in German, every problem at once.
    assert problems == [
        "Karte 1: Priester ist heilig und muss ein Heiliger Dorfbewohner sein (W-22)",
        "Priester ist zweimal ausgeteilt (Karte 1 und Karte 2); jeder Charakter ist einmalig",
        "Karte 2: Priester ist heilig und muss ein Heiliger Dorfbewohner sein (W-22)",
        "Es muss weniger Hexen als Dorfbewohner geben (2 Hexen, 1 Dorfbewohner)",
    ]
    assert problems[1] in response.content.decode()
    response = client.post(reverse("game_new"), {**NEW_GAME, "cards": CARDS})  # four seats
    assert [str(p) for p in response.context["form"].non_field_errors()] == [
        "Das Blatt nennt 3 Karten für 4 Plätze."
    ]
    response = client.post(reverse("game_new"), {**NEW_GAME, "seats_count": 5, "cards": WARNED})
    assert [str(p) for p in response.context["form"].non_field_errors()] == [
        "Warnung: weniger als zwei Drittel Dorfbewohner (3 von 5); die Regeln erwarten zwei "
        "Drittel oder mehr"
    ]
    response = client.post(
        reverse("game_new"), {**NEW_GAME, "cards": CARDS + "\nwizard basic_villager",
                              "reminder_hours": "24, 500"}
    )  # fmt: skip
    assert response.context["form"].errors["reminder_hours"] == [
        "Erinnerungen liegen zwischen 1 und 168 Stunden."
    ]
    assert not Game.objects.exists()


def test_a_setup_problem_is_english_when_printed_and_worded_when_read(german):
    setup = {
        "players": [
            {"name": "Ann", "character": "gambler", "type": "basic_villager"},
            {"name": "Bob", "character": "gambler", "type": "elder_witch"},
            {"name": "Cat", "character": "judge", "type": "basic_villager"},
        ]
    }
    [(level, problem)] = setup_problems("witchhunt", setup)
    assert level == "error"
    # The records' and the conformance cases' English, whatever the reader's language.
    assert str(problem) == "Gambler is dealt twice (Ann and Bob); characters are unique"
    assert refusal_words(problem) == (
        "Glücksspieler ist zweimal ausgeteilt (Ann und Bob); jeder Charakter ist einmalig"
    )
    with translation.override("en"):
        assert refusal_words(problem) == str(problem)
    # A Werewolf role likewise (WW setup checks).
    roles = ["seer", "seer", "werewolf", "villager", "villager"]
    setup = {"players": [{"name": f"p{i}", "role": r} for i, r in enumerate(roles)]}
    [(level, problem)] = setup_problems("werewolf", setup)
    assert str(problem) == "Seer is dealt twice (p0 and p1); it is a single card"
    assert refusal_words(problem) == (
        "Seherin ist zweimal ausgeteilt (p0 und p1); es ist eine einzelne Karte"
    )


def test_a_pool_deal_names_its_placeholder_seats_as_given(german):
    # Without seat words (a pool: no line of the host's to name), the seats stay as dealt.
    deal = {"mode": "explicit", "cards": [{"character": "priest", "type": "basic_villager"}]}
    deal["cards"] += [{"character": "judge", "type": "elder_witch"}] * 2
    deal["shuffle"] = False
    found = deal_problems("witchhunt", deal, 3)
    assert "Seat0: Priester ist heilig und muss ein Heiliger Dorfbewohner sein (W-22)" in found
