"""Who may host: the first sign-up on a site without a host, members an operator makes hosts
(the admin's permission, or `manage.py host_grant`), and what everyone else is told."""

import threading

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command
from django.db import connection, connections, transaction
from django.urls import reverse

from accounts.models import User
from accounts.services import host_grant_if_first
from games.models import Game
from games.permissions import can_host, hosts
from tests.factories import UserFactory

PASSWORD = "a-long-and-unusual-passphrase"


def _sign_up(client, name):
    response = client.post(
        reverse("account_signup"),
        {
            "email": f"{name.lower()}@example.com",
            "player_name": name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    return User.objects.get(player_name=name)


def _add_game():
    return Permission.objects.get(content_type__app_label="games", codename="add_game")


# --- the first sign-up ------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_first_sign_up_on_a_fresh_site_can_host_and_the_next_cannot(client):
    first = _sign_up(client, "Ada")
    second = _sign_up(client, "Bea")

    assert can_host(first) and not can_host(second)
    assert list(hosts()) == [first]


def _someone_who_can_host(how):
    if how == "superuser":
        UserFactory(is_superuser=True)
    elif how == "own permission":
        UserFactory().user_permissions.add(_add_game())
    else:
        hosts_group = Group.objects.create(name="Hosts")
        hosts_group.permissions.add(_add_game())
        hosts_group.user_set.add(UserFactory())


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("how", ["superuser", "own permission", "group permission"])
def test_no_sign_up_becomes_a_host_where_someone_can_host(client, how):
    _someone_who_can_host(how)
    assert hosts().count() == 1

    assert not can_host(_sign_up(client, "Ada"))


@pytest.mark.django_db
def test_an_inactive_host_leaves_the_site_without_one(client):
    UserFactory(is_superuser=True, is_active=False)
    assert can_host(_sign_up(client, "Ada"))


@pytest.mark.django_db
def test_a_sign_up_that_fails_grants_nothing(client):
    response = client.post(
        reverse("account_signup"),
        {"email": "ada@example.com", "player_name": "A", "password1": PASSWORD},
    )
    assert response.status_code == 200
    assert not hosts().exists()


@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
)
@pytest.mark.django_db(transaction=True)
def test_of_two_sign_ups_at_once_only_one_becomes_a_host():
    """The first sign-up holds its grant uncommitted while the second checks: without the
    lock, the second would see no host yet and become one too."""
    first_granted = threading.Event()
    results, errors = {}, []

    def sign_up(name, *, wait=None, hold=None):
        try:
            if wait:
                wait.wait(timeout=10)
            with transaction.atomic():
                user = UserFactory(player_name=name)
                results[name] = host_grant_if_first(user)
                if hold:
                    hold.set()
                    threading.Event().wait(0.5)  # still uncommitted while the other checks
        except Exception as e:  # reported below
            errors.append(e)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=sign_up, args=("Ada",), kwargs={"hold": first_granted}),
        threading.Thread(target=sign_up, args=("Bea",), kwargs={"wait": first_granted}),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert not errors, errors
    assert results == {"Ada": True, "Bea": False}
    assert [user.player_name for user in hosts()] == ["Ada"]


# --- what a member who may not host is told ----------------------------------------------------
@pytest.mark.django_db
def test_a_member_who_may_not_host_is_told_how_to_become_one(client):
    UserFactory(player_name="Root", is_superuser=True, is_staff=True)
    staff = UserFactory(player_name="Clerk", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_user"))
    UserFactory(player_name="NotStaff").user_permissions.add(
        Permission.objects.get(codename="change_user")
    )
    member = UserFactory(player_name="Martha")
    client.force_login(member)

    response = client.get(reverse("game_new"))

    assert response.status_code == 403
    html = response.content.decode()
    assert "<h1>Becoming a host</h1>" in html
    assert "Only hosts open games, and you are not a host yet." in html
    assert "Ask <strong>Clerk</strong> or <strong>Root</strong> to make you one" in html
    assert "NotStaff" not in html
    assert "giving your player name, <strong>Martha</strong>" in html
    assert 'name="title"' not in html  # no form to fill in

    response = client.post(reverse("game_new"), {"title": "Salem", "ruleset": "witchhunt"})
    assert response.status_code == 403 and not Game.objects.exists()


@pytest.mark.django_db
def test_a_site_without_admins_says_whom_to_ask_in_words(client):
    client.force_login(UserFactory(player_name="Martha"))
    html = client.get(reverse("game_new")).content.decode()
    assert "Ask whoever runs this site to make you one" in html


@pytest.mark.django_db
def test_a_host_gets_the_new_game_form(client):
    host = UserFactory()
    host.user_permissions.add(_add_game())
    client.force_login(host)
    response = client.get(reverse("game_new"))
    assert response.status_code == 200 and 'name="title"' in response.content.decode()


# --- manage.py host_grant ---------------------------------------------------------------------
@pytest.mark.django_db
def test_host_grant_by_player_name_or_email_and_revoke(capsys):
    member = UserFactory(player_name="Martha", email="martha@example.com")

    call_command("host_grant", "martha")
    assert "Martha can host games." in capsys.readouterr().out
    assert can_host(User.objects.get(pk=member.pk))

    call_command("host_grant", "MARTHA@example.com", "--revoke")
    assert "Martha cannot host games." in capsys.readouterr().out
    assert not can_host(User.objects.get(pk=member.pk))

    with pytest.raises(CommandError, match="No member has the player name or email"):
        call_command("host_grant", "nobody")
