import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.demo import DEMO_PASSWORD, DEMO_PLAYER_NAMES
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_a_moderator_and_a_dozen_players_once(capsys):
    call_command("seed_demo")
    first = capsys.readouterr().out
    call_command("seed_demo")
    second = capsys.readouterr().out

    assert "13 created, 0 already there" in first
    assert "0 created, 13 already there" in second
    assert DEMO_PASSWORD in second
    assert len(DEMO_PLAYER_NAMES) == 12
    assert User.objects.count() == 13
    assert list(User.objects.filter(is_staff=True).values_list("player_name", flat=True)) == [
        "Moderator"
    ]


def test_demo_player_signs_in_with_the_printed_password(client):
    call_command("seed_demo")
    client.post(
        reverse("account_login"), {"login": "tituba@example.com", "password": DEMO_PASSWORD}
    )
    assert client.session["_auth_user_id"] == str(User.objects.get(player_key="tituba").pk)


def test_seed_demo_refused_where_not_allowed(settings):
    settings.DEMO_SEED_ALLOWED = False
    with pytest.raises(CommandError, match="DEMO_SEED_ALLOWED"):
        call_command("seed_demo")
    assert not User.objects.exists()
