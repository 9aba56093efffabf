"""The clock under real concurrency: PostgreSQL row locks (SQLite has none, so these are
skipped there; CI runs the suite on PostgreSQL)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import services
from games.models import Game, GameInput
from games.services import sweep
from tests.games.conftest import make_game

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
    ),
    pytest.mark.django_db(transaction=True),
]


def _in_threads(target, n=2):
    """Run `target()` in n threads released together; returns their results."""
    barrier = threading.Barrier(n)
    results, errors = [None] * n, []

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = target()
        except Exception as e:  # reported below, with the thread's own traceback
            errors.append(e)
        finally:
            connections.close_all()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return results


def _due_games(moderator, cast_users, n):
    games = [make_game(moderator, cast_users) for _ in range(n)]
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        deadline_at=timezone.now() - timedelta(minutes=1)
    )
    return games


def _advances(game):
    return GameInput.objects.filter(game=game, step={"advance": "phase"}).count()


@pytest.mark.slow
def test_two_threads_sweeping_the_same_due_games_advance_each_exactly_once(moderator, cast_users):
    games = _due_games(moderator, cast_users, 6)
    results = _in_threads(sweep.clock_sweep)
    assert sum(r.get(sweep.ADVANCED, 0) for r in results) == 6
    assert not any(sweep.FAILED in r for r in results)
    for game in games:
        game.refresh_from_db()
        assert game.phase == "night 1" and _advances(game) == 1


def test_two_workers_advancing_one_game_with_the_same_expected_phase_advance_it_once(
    moderator, cast_users
):
    """No skip_locked here: the second waits for the lock, then finds the phase moved on."""
    (game,) = _due_games(moderator, cast_users, 1)
    results = _in_threads(lambda: services.phase_advance(game=game, expected_phase="day 1"))
    assert sorted(r is None for r in results) == [False, True]  # one advanced, one no-op
    game.refresh_from_db()
    assert game.phase == "night 1" and _advances(game) == 1
