"""The desk's replace form names the newcomer by player name (the Hardening review,
finding 10): a host cannot probe which email addresses are registered.

A host's text is a player name, whatever it looks like: nothing is looked up by email
address, and every miss (an unknown name, any email address, registered or not, an
inactive account) gets the same words. Staff who manage members (accounts.change_user),
who see every address in the admin anyway, may still name a member by email address.
"""

import re

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.engine import GameRuleError
from games.models import Post
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text

pytestmark = pytest.mark.django_db


def _replace(client, game, who, seat="bob"):
    response = client.post(reverse("game_desk_replace", args=[game.pk]), {"seat": seat, "who": who})
    assert response.status_code == 200  # a refusal re-renders the desk
    return [str(m) for m in response.context["messages"]]


def _unchanged(game):
    assert game.seats.get(name="bob").user.player_name == "Bob"
    assert not Post.objects.filter(game=game, kind="moderator").exists()


def test_a_host_gets_the_same_words_for_any_email_as_for_an_unknown_name(
    client, cast_game, moderator
):
    registered = UserFactory(player_name="Newby")
    inactive = UserFactory(player_name="Gone", is_active=False)
    client.force_login(moderator)
    for who in (
        registered.email,  # a member, by address
        registered.email.upper(),
        "nobody-here",  # no such member
        "never-registered@example.com",  # no such address
        inactive.email,
        "gone",  # a member by name, but inactive
    ):
        assert _replace(client, cast_game, who) == [f"No member has the player name {who}."], who
    _unchanged(cast_game)
    text = page_text(client.get(reverse("game_desk", args=[cast_game.pk])).content.decode())
    assert "Their player name. They take the seat" in text
    assert "email address" not in text


def test_a_hosts_replace_never_looks_a_member_up_by_email(client, cast_game, moderator):
    registered = UserFactory(player_name="Newby")
    client.force_login(moderator)
    with CaptureQueriesContext(connection) as queries:
        _replace(client, cast_game, registered.email)
    where = [q["sql"].split(" WHERE ", 1)[1] for q in queries if " WHERE " in q["sql"]]
    # The address column itself: the desk's list of refused addresses reads other columns.
    by_address = re.compile(r'"email"\)?\s*(=|LIKE|IN\b)', re.I)
    assert where and not any(by_address.search(clause) for clause in where), where
    _unchanged(cast_game)


def test_the_service_treats_a_hosts_text_as_a_player_name(cast_game, moderator):
    newby = UserFactory(player_name="Newby")
    assert services.member_find(identifier=" NEWBY ", by=moderator) == newby
    with pytest.raises(GameRuleError) as refusal:
        services.member_find(identifier=newby.email, by=moderator)
    assert str(refusal.value) == f"no member has the player name {newby.email}"
    with pytest.raises(GameRuleError) as refusal:
        services.member_find(identifier="  ", by=moderator)
    assert str(refusal.value) == "type the new player's player name"


def test_staff_without_the_management_of_members_name_players_by_name_only(cast_game):
    staff = UserFactory(player_name="Staffer", is_staff=True)
    newby = UserFactory(player_name="Newby")
    assert not services.member_find_by_email_allowed(staff)
    with pytest.raises(GameRuleError) as refusal:
        services.member_find(identifier=newby.email, by=staff)
    assert str(refusal.value) == f"no member has the player name {newby.email}"


def test_staff_who_manage_members_may_name_one_by_email(cast_game):
    staff = UserFactory(player_name="Staffer", is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(content_type__app_label="accounts", codename="change_user")
    )
    staff = type(staff).objects.get(pk=staff.pk)  # a fresh copy: no cached permissions
    newby = UserFactory(player_name="Newby")
    inactive = UserFactory(player_name="Gone", is_active=False)
    assert services.member_find_by_email_allowed(staff)
    assert services.member_find(identifier=newby.email.upper(), by=staff) == newby
    assert services.member_find(identifier="newby", by=staff) == newby
    # Their misses are alike too: an unknown address, an inactive account, an unknown name.
    for who in ("never-registered@example.com", inactive.email, "nobody-here"):
        with pytest.raises(GameRuleError) as refusal:
            services.member_find(identifier=who, by=staff)
        assert str(refusal.value) == f"no member has the player name or email address {who}"


def test_a_superuser_replaces_by_email_on_the_desk(client, cast_game):
    root = UserFactory(player_name="Root", is_staff=True, is_superuser=True)
    newby = UserFactory(player_name="Newby")
    client.force_login(root)
    text = page_text(client.get(reverse("game_desk", args=[cast_game.pk])).content.decode())
    assert "(or, as staff who manage members, their email address)" in text
    response = client.post(
        reverse("game_desk_replace", args=[cast_game.pk]),
        {"seat": "bob", "who": newby.email.upper()},
        follow=True,
    )
    assert "Newby replaces Bob" in page_text(response.content.decode())
    assert cast_game.seats.get(name="bob").user == newby
