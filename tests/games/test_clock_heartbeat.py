"""The clock's heartbeat: the beat's sweep writes it; the desk and the admin say how long
ago the clock last ran, with a warning once it counts as stopped."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games.models import ClockHeartbeat
from games.services import clock_sweep
from tests.factories import UserFactory

T0 = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)


def _beat_at():
    return ClockHeartbeat.objects.get(pk=1).beat_at


@pytest.mark.django_db
def test_the_beats_sweep_writes_the_heartbeat_and_the_extra_sweeps_do_not():
    with time_machine.travel(T0, tick=False):
        clock_sweep()
    assert _beat_at() == T0
    with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
        clock_sweep(share=False)  # a sweep a burst asked for, not beat's
    assert _beat_at() == T0


@pytest.mark.django_db
def test_the_heartbeat_row_is_made_again_when_missing():
    ClockHeartbeat.objects.all().delete()
    with time_machine.travel(T0, tick=False):
        clock_sweep()
    assert _beat_at() == T0


def _desk(client, game, moderator, seconds):
    client.force_login(moderator)
    with time_machine.travel(T0 + timedelta(seconds=seconds), tick=False):
        return client.get(reverse("game_desk", args=[game.pk])).content.decode()


@pytest.mark.django_db
def test_the_desk_says_when_the_clock_last_ran_and_warns_when_it_stopped(
    client, cast_game, moderator
):
    with time_machine.travel(T0, tick=False):
        clock_sweep()
    fresh = _desk(client, cast_game, moderator, 7)
    assert "The clock last ran 7 s ago." in fresh
    assert "It has stopped" not in fresh and 'class="clock-beat notice"' not in fresh
    stale = _desk(client, cast_game, moderator, 400)
    assert "The clock last ran 400 s ago. It has stopped" in stale
    assert 'class="clock-beat notice"' in stale


@pytest.mark.django_db
def test_the_admin_index_and_the_games_list_say_when_the_clock_last_ran(client, cast_game):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    with time_machine.travel(T0, tick=False):
        clock_sweep()
    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        index = client.get(reverse("admin:index")).content.decode()
        games = client.get(reverse("admin:games_game_changelist")).content.decode()
    for page in (index, games):
        assert '<li class="info clock-beat">The clock last ran 5 s ago.</li>' in page
    with time_machine.travel(T0 + timedelta(seconds=200), tick=False):
        index = client.get(reverse("admin:index")).content.decode()
    assert '<li class="warning clock-beat">The clock last ran 200 s ago. It has stopped' in index
