"""The admin: games listed with their state, engine rows read-only, actions via services."""

import pytest
from django.urls import reverse

from games import services
from games.models import Game, GameEvent, GameInput
from tests.factories import UserFactory
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(player_name="Root", is_staff=True, is_superuser=True))
    return client


def _messages(response):
    return [str(m) for m in response.context["messages"]]


def test_game_list_shows_status_phase_and_seats(admin_client, cast_game):
    response = admin_client.get(reverse("admin:games_game_changelist"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "The named cast" in html and "day 1" in html and "8 / 8" in html
    for column in ("Status", "Phase", "Deadline at", "Seats"):
        assert column in html
    search = admin_client.get(reverse("admin:games_game_changelist"), {"q": "nothing-like"})
    assert "The named cast" not in search.content.decode()
    running = admin_client.get(reverse("admin:games_game_changelist"), {"status": "running"})
    assert "The named cast" in running.content.decode()


def test_game_page_shows_seats_and_cards_read_only(admin_client, cast_game):
    response = admin_client.get(reverse("admin:games_game_change", args=[cast_game.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "judge (elder_witch)" in html  # the seats inline, with their cards
    assert 'name="title"' not in html  # nothing editable: writes go through services


def test_adding_a_game_goes_to_the_new_game_page(admin_client):
    response = admin_client.get(reverse("admin:games_game_add"))
    assert response.status_code == 302 and response["Location"] == reverse("game_new")


@pytest.mark.parametrize("model", [GameEvent, GameInput])
def test_engine_rows_are_append_only(admin_client, cast_game, cast_users, model):
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    name = model._meta.model_name
    row = model.objects.filter(game=cast_game).first()
    assert admin_client.get(reverse(f"admin:games_{name}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:games_{name}_add")).status_code == 403
    change = admin_client.get(reverse(f"admin:games_{name}_change", args=[row.pk]))
    assert change.status_code == 200 and "Save" not in change.content.decode()
    delete = admin_client.post(
        reverse(f"admin:games_{name}_delete", args=[row.pk]), {"post": "yes"}
    )
    assert delete.status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_start_action_calls_the_service_and_reports_refusals(admin_client, moderator, cast_users):
    full = make_game(moderator, cast_users, start=False)
    short = make_game(moderator, cast_users, start=False)
    short.seats.get(name="ann").delete()
    response = admin_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "start_games", "_selected_action": [full.pk, short.pk]},
        follow=True,
    )
    messages = _messages(response)
    assert "The named cast: started." in messages
    assert "The named cast: 7 of 8 seats are filled" in messages
    full.refresh_from_db()
    short.refresh_from_db()
    assert full.status == Game.Status.RUNNING and short.status == Game.Status.OPEN


def test_advance_now_action_ends_the_phase(admin_client, cast_game):
    # Asked first, each game with its phase (tests/games/test_advance_once.py).
    data = {"action": "advance_games", "_selected_action": [cast_game.pk]}
    asked = admin_client.post(reverse("admin:games_game_changelist"), data)
    assert f'name="phase-{cast_game.pk}" value="day 1"' in asked.content.decode()
    response = admin_client.post(
        reverse("admin:games_game_changelist"),
        {**data, "post": "yes", f"phase-{cast_game.pk}": "day 1"},
        follow=True,
    )
    assert "The named cast: Day 1 has ended." in _messages(response)
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1"


def test_admin_is_closed_to_non_staff(client, cast_game, moderator):
    client.force_login(moderator)  # the host, but not staff
    response = client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 302


def test_admin_retry_clock_clears_the_backoff(admin_client, cast_game):
    """The "retry the clock now" action lets the next sweep try a failed game at once."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game

    Game.objects.filter(pk=cast_game.pk).update(
        clock_failures=2, clock_retry_at=timezone.now() + timedelta(hours=1)
    )
    response = admin_client.post(
        "/admin/games/game/",
        {"action": "retry_clock", "_selected_action": [cast_game.pk]},
        follow=True,
    )
    assert response.status_code == 200
    cast_game.refresh_from_db()
    assert cast_game.clock_retry_at is None and cast_game.clock_failures == 2
