"""Numbers and lists from the address bar and the forms are bounded where they come in:
an odd or huge one is a 404 or a form error, never a 500, and no form builds a list larger
than the largest game."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from games import services
from games.forms import MAX_SEATS, NewGameForm, parse_cards
from games.models import Game
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game, users_for
from witchhunt.converters import MAX_ID, IdConverter, parse_id

pytestmark = pytest.mark.django_db

TOO_BIG = str(MAX_ID + 1)  # 2**63: no row can have it, and SQLite cannot even be asked


@pytest.fixture
def client():
    # A 500 must show as a status here, not as an exception in the test.
    return Client(raise_request_exception=False)


@pytest.fixture
def host(db):
    user = UserFactory(player_name="Host")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="add_game")
    )
    return type(user).objects.get(pk=user.pk)


@pytest.fixture
def players(db):
    return users_for(CAST)


@pytest.fixture
def game(host, players):
    return make_game(host, players)


# --- ids in URLs ------------------------------------------------------------------------------
def _patterns(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry


def test_no_url_takes_an_unbounded_integer():
    unbounded = [
        route
        for route, entry in _patterns()
        for converter in getattr(entry.pattern, "converters", {}).values()
        if isinstance(converter, IntConverter)
    ]
    assert unbounded == [], "use <id:...> (witchhunt/converters.py), which stops at 2**63 - 1"


def _game_routes():
    """Every route of the site that takes a game id, with sample values for the rest."""
    found = []
    for route, _entry in _patterns():
        if not re.search(r"<(?:int|id):game_id>", route):
            continue
        path = re.sub(r"<(?:int|id):game_id>", TOO_BIG, route)
        path = re.sub(r"<slug:\w+>", "coven", path)
        found.append("/" + path)
    return found


def test_every_game_route_uses_the_bounded_converter():
    routes = _game_routes()
    # The thread, the role page, the desk, the rooms, the record: all of them.
    assert len(routes) >= 25, routes


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_game_id_over_the_largest_id_is_not_found_everywhere(client, game, players, method):
    client.force_login(players["ann"])
    statuses = {path: getattr(client, method)(path).status_code for path in _game_routes()}
    assert set(statuses.values()) == {404}, statuses


def test_the_largest_id_still_resolves_and_reverses(client):
    assert reverse("game_detail", args=[MAX_ID]) == f"/games/{MAX_ID}/"
    assert client.get(f"/games/{MAX_ID}/").status_code == 404  # no such game, asked safely
    assert client.get("/games/99999999999999999999/").status_code == 404


def test_the_converter_refuses_what_the_database_cannot_hold():
    converter = IdConverter()
    assert converter.to_python("0") == 0
    assert converter.to_python(str(MAX_ID)) == MAX_ID
    with pytest.raises(ValueError):
        converter.to_python(TOO_BIG)
    assert re.fullmatch(converter.regex, "9" * 19)
    assert not re.fullmatch(converter.regex, "9" * 20)


@pytest.mark.parametrize(
    ("text", "number"),
    [("1", 1), ("0042", 42), (str(MAX_ID), MAX_ID), ("0", None), (TOO_BIG, None),
     ("9" * 5000, None), ("²", None), ("٣", None), ("-1", None), ("1.5", None), (" 1", None),
     ("", None), ("1e3", None)],
)  # fmt: skip
def test_parse_id_reads_plain_positive_numbers_only(text, number):
    assert parse_id(text) == number


# --- ?reply= and ?quote= on the game page -----------------------------------------------------
def test_reply_and_quote_prefill_the_form_from_a_real_post(client, game, players):
    post = services.post_create(game=game, user=players["bob"], body="I am the Judge.")
    client.force_login(players["ann"])
    response = client.get(reverse("game_detail", args=[game.pk]), {"reply": str(post.number)})
    form = response.context["post_form"]
    assert "I am the Judge." in form.initial["body"] and form.initial["reply_to"] == post.number


@pytest.mark.slow
@pytest.mark.parametrize("key", ["reply", "quote"])
@pytest.mark.parametrize(
    "value", ["²", "٣", "9" * 5000, TOO_BIG, "99999999999999999999", "-1", "0", "1x", ""]
)
def test_odd_or_huge_reply_and_quote_numbers_are_ignored(client, game, players, key, value):
    services.post_create(game=game, user=players["bob"], body="I am the Judge.")
    client.force_login(players["ann"])
    response = client.get(reverse("game_detail", args=[game.pk]), {key: value})
    assert response.status_code == 200
    assert response.context["post_form"].initial == {}


# --- the new-game form ------------------------------------------------------------------------
NEW_GAME = {
    "ruleset": "werewolf",
    "title": "Bounds",
    "seats_count": 8,
    "deal_mode": "explicit",
    "day_hours": 48,
    "night_hours": 12,
    "reminder_hours": "24, 1",
}


def _new_game(client, host, **fields):
    client.force_login(host)
    return client.post(reverse("game_new"), {**NEW_GAME, **fields})


def _errors(response):
    form = response.context["form"]
    return {name: [str(e) for e in errors] for name, errors in form.errors.items()}


@pytest.mark.slow
@pytest.mark.parametrize(
    "field",
    ["seats_count", "werewolves", "specials", "day_hours", "night_hours", "early_end_grace",
     "archangel_cards", "stalemate_cycles", "count_basic_villager"],
)  # fmt: skip
@pytest.mark.parametrize("value", ["99999999999999999999", "9" * 5000, "-99999999999999999999"])
def test_huge_numbers_in_the_new_game_form_are_form_errors(client, host, field, value):
    response = _new_game(client, host, cards="8 x villager", **{field: value})
    assert response.status_code == 200
    assert field in _errors(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize("count", ["9" * 4400, "99999999999999999999", "49"])
def test_a_huge_repeat_count_in_the_card_list_is_refused(client, host, count):
    response = _new_game(client, host, cards=f"{count} x villager")
    assert response.status_code == 200
    assert any(f"at most {MAX_SEATS} cards" in e for e in _errors(response)["cards"])
    assert not Game.objects.exists()


def test_the_card_list_stops_at_the_largest_game():
    assert MAX_SEATS == 48  # Game's check constraint: 3 to 48 seats
    # 4,000 cards' worth of lines in under 2 kB of text: the list is never built.
    cards, problems = parse_cards("40 x villager\n" * 100, "werewolf")
    assert len(cards) <= MAX_SEATS
    assert problems == [f"Line 2: a game has at most {MAX_SEATS} seats, so at most "
                        f"{MAX_SEATS} cards."]  # fmt: skip
    cards, problems = parse_cards("9" * 4400 + " x villager", "werewolf")  # int() would raise
    assert cards == [] and len(problems) == 1
    cards, problems = parse_cards("48 x villager", "werewolf")
    assert len(cards) == 48 and problems == []


def test_the_card_list_text_and_other_free_text_have_a_length_limit(client, host):
    form = NewGameForm()
    assert form.fields["cards"].max_length is not None
    assert form.fields["reminder_hours"].max_length is not None
    response = _new_game(client, host, cards="villager\n" * 2000, reminder_hours="1," * 500)
    errors = _errors(response)
    assert "cards" in errors and "reminder_hours" in errors
    assert not Game.objects.exists()


def test_repeated_pool_choices_count_once(client, host):
    response = _new_game(
        client, host, deal_mode="pool", roles=["seer"] * 500 + ["witch"], werewolves=2,
        seats_count=7,
    )  # fmt: skip
    assert response.status_code == 302
    assert Game.objects.get().deal["roles"] == ["seer", "witch"]
