"""Sign-up deadlines under real concurrency (issue 16): two clock sweeps at once tell each
host once. PostgreSQL row locks (skip_locked); skipped on SQLite, like
tests/games/test_clock_postgres.py, whose thread helper this shares."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.community import ticks
from games.models import Game, Notification
from games.services import sweep
from tests.factories import UserFactory
from tests.games.conftest import CAST
from tests.games.test_clock_postgres import _in_threads

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
    ),
    pytest.mark.django_db(transaction=True),
]

CARDS = [{"character": c, "type": t} for _, c, t in CAST]


def _lapsed_games(n):
    """n open games, each of its own host, whose start date passed a minute ago."""
    games = [
        services.game_create(
            host=UserFactory(),
            ruleset="witchhunt",
            title=f"Short {i}",
            seats_count=len(CARDS),
            seed=i,
            deal={"mode": "explicit", "cards": CARDS, "shuffle": False},
            signups_close_at=timezone.now() + timedelta(days=1),
        )
        for i in range(n)
    ]
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        signups_close_at=timezone.now() - timedelta(minutes=1)
    )
    return games


def test_two_sweeps_at_once_tell_each_host_of_a_lapsed_game_exactly_once():
    games = _lapsed_games(6)
    results = _in_threads(lambda: sweep.clock_sweep(share=False))
    assert sum(r.get(ticks.LAPSED, 0) for r in results) == 6
    assert not any(sweep.FAILED in r for r in results)
    for game in games:
        game.refresh_from_db()
        assert game.signups_lapsed_at is not None
        assert Notification.objects.filter(game=game, user=game.host).count() == 1
    assert sweep.clock_sweep(share=False) == {}


def test_the_claim_locks_one_row_and_skips_a_locked_one():
    (game,) = _lapsed_games(1)
    with CaptureQueriesContext(connection) as queries:
        assert ticks.signups_tick() == ticks.LAPSED
    claim = next(q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"])
    assert "SKIP LOCKED" in claim and '"signups_close_at" <=' in claim
    game.refresh_from_db()
    assert game.signups_lapsed_at is not None
