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


def test_the_demo_moderator_moderates_every_game_by_permission_not_staff_status():
    """Staff status alone moderates no game: the demo moderator holds games.moderate_any_game
    itself, so it moderates a game it does not host even without the superuser flag."""
    from games import services
    from games.models import Game
    from games.permissions import can_moderate

    call_command("seed_demo")
    moderator = User.objects.get(player_name="Moderator")
    assert moderator.user_permissions.filter(
        content_type__app_label="games", codename="moderate_any_game"
    ).exists()
    host = User.objects.get(player_key="tituba")
    other = services.game_create(
        host=host,
        ruleset="witchhunt",
        title="Not the demo's",
        seats_count=3,
        deal={
            "mode": "explicit",
            "cards": [
                {"character": "priest", "type": "holy_villager"},
                {"character": "judge", "type": "elder_witch"},
                {"character": "gravedigger", "type": "basic_villager"},
            ],
        },
    )
    User.objects.filter(pk=moderator.pk).update(is_superuser=False)
    moderator = User.objects.get(pk=moderator.pk)
    assert moderator.is_staff and not moderator.is_superuser
    assert can_moderate(other, moderator)
    assert can_moderate(Game.objects.get(title__endswith="(demo)"), moderator)
    User.objects.filter(pk=moderator.pk).update(is_superuser=False, is_staff=True)
    moderator.user_permissions.clear()
    assert not can_moderate(other, User.objects.get(pk=moderator.pk))


def test_the_demo_has_a_game_open_for_sign_ups_and_a_finished_one_once(client):
    from games.models import Game

    call_command("seed_demo")
    call_command("seed_demo")
    open_game = Game.objects.get(status=Game.Status.OPEN)
    assert open_game.seats.count() == 5 < open_game.seats_count == 8
    assert open_game.start_when_full and open_game.signups_close_at
    finished = Game.objects.get(status=Game.Status.FINISHED)
    assert finished.winner == "witches" and finished.deal_commitment
    assert Game.objects.count() == 3
    # A visitor finds the finished game in the archive and its reveal opens.
    assert finished.title in client.get(reverse("archive")).content.decode()
    assert client.get(reverse("game_reveal", args=[finished.pk])).status_code == 200
