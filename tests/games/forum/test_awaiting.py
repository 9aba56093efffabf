"""Issue 31: the home page and the lobby tell a signed-in player which of their games await
their vote or night action (games/turns.py `awaited`, as the reminders ask), and no one
else; the lobby's queries stay the same however many games await them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from tests.factories import UserFactory
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db

VOTE = "Your vote is awaited in"
NIGHT = "Your night action is awaited in"


def _text(client, user, name):
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    return client.get(reverse(name)).content.decode()


@pytest.mark.parametrize("page", ["home", "game_list"])
def test_a_day_vote_is_awaited_until_it_is_cast(client, cast_game, cast_users, page):
    assert VOTE in _text(client, cast_users["ann"], page)
    assert "The named cast" in _text(client, cast_users["ann"], page)
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    assert VOTE not in _text(client, cast_users["ann"], page)
    assert VOTE in _text(client, cast_users["bob"], page)  # Bob has not voted


@pytest.mark.parametrize("page", ["home", "game_list"])
def test_only_the_player_is_told(client, cast_game, cast_users, moderator, page):
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    outsider = UserFactory(player_name="Outsider")
    for viewer in (None, outsider, moderator):
        html = _text(client, viewer, page)
        assert VOTE not in html and NIGHT not in html


def test_a_night_duty_is_awaited_on_the_role_page(client, cast_game, cast_users, moderator):
    services.phase_advance(game=cast_game, by=moderator)  # night 1
    html = _text(client, cast_users["bob"], "home")  # an Elder: the coven's vote
    assert NIGHT in html
    assert reverse("game_role", args=[cast_game.pk]) in html
    assert VOTE not in html


def _lobby_queries(client, user):
    client.force_login(user)
    client.get(reverse("game_list"))  # the states cached, as on a running site
    with CaptureQueriesContext(connection) as queries:
        html = client.get(reverse("game_list")).content.decode()
    return len(queries), html.count(VOTE)


def test_the_lobby_queries_do_not_grow_with_the_games_awaiting(client, moderator, cast_users):
    make_game(moderator, cast_users, title="First")
    one = _lobby_queries(client, cast_users["ann"])
    others = {n: UserFactory(player_name=f"{n.title()}2") for n in cast_users}
    others["ann"] = cast_users["ann"]
    make_game(moderator, others, title="Second")
    two = _lobby_queries(client, cast_users["ann"])
    assert (one[1], two[1]) == (1, 2)
    assert one[0] == two[0]
