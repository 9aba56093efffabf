"""A clock worker killed (`kill -9`) in the middle of resolving a night leaves the night
resolved exactly once or not at all, and the next sweep finishes it (games/services/
sweep.py: one transaction per game; docs/operations.md "A worker dies mid-night").

A real worker (`celery -A witchhunt worker -B`, on a Redis of the test's own) claims the
due night. The test holds the lock a migration's CREATE INDEX on the posts table takes
(SHARE), so the worker stops mid-resolution: the night's input and events written, the
game row locked, its first system post waiting. It is SIGKILLed there with its pool, the
lock released, and a new worker started.
"""

from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.mapping import replay_mismatch
from games.models import EmailSent, Game, GameEmail, GameEvent, GameInput, Post
from games.services import sweep
from tests import stack
from tests.games.conftest import COURT_CAST, make_game

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
    ),
    pytest.mark.django_db(transaction=True),  # the worker reads what the test commits
]


def _due_night(moderator, users):
    """Night 1 of the court game with its actions in, its deadline just passed."""
    game = make_game(moderator, users, cast=COURT_CAST, options={"public_setup": False})
    services.phase_advance(game=game, by=moderator)
    game.refresh_from_db()
    services.action_submit(game=game, user=users["ann"], action="ability", targets=["ivy"])
    services.action_submit(game=game, user=users["bob"], action="coven", target="jon")
    services.action_submit(game=game, user=users["ivy"], action="ability", targets=["ann"])
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    return game


def _night_ends(game):
    return GameInput.objects.filter(game=game, phase="night 1", step={"advance": "phase"})


def _written(game):
    return (
        GameInput.objects.filter(game=game).count(),
        GameEvent.objects.filter(game=game).count(),
        Post.objects.filter(game=game).count(),
        EmailSent.objects.filter(game=game).count(),
        GameEmail.objects.filter(game=game).count(),
    )


def _conninfo():
    db = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"],
        dbname=db["NAME"],
    )  # fmt: skip


def _blocked_insert(db_name):
    """The pid of the backend waiting on a lock to insert a post, once there is one."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND wait_event_type = "
            "'Lock' AND query LIKE 'INSERT INTO \"games_post\"%%'",
            [db_name],
        )
        row = cursor.fetchone()
    return row and row[0]


def _tables_written_by(pid):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relation::regclass::text FROM pg_locks WHERE pid = %s AND granted "
            "AND mode = 'RowExclusiveLock' AND locktype = 'relation'",
            [pid],
        )
        return {row[0] for row in cursor.fetchall()}


def _row_held(game):
    """Whether another transaction holds the game's row (FOR UPDATE, as a service does)."""
    with psycopg.connect(_conninfo()) as rival:
        try:
            rival.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk])
        except psycopg.errors.LockNotAvailable:
            return True
    return False


def _backend_gone(pid):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone() is None


def test_a_worker_killed_mid_night_leaves_it_unresolved_and_the_next_sweep_resolves_it_once(
    moderator, court_users, tmp_path
):
    game = _due_night(moderator, court_users)
    before = _written(game)
    db_name = connection.settings_dict["NAME"]
    with stack.private_redis(tmp_path) as redis:
        env = stack.site_env(database=stack.database_url(), redis=redis)

        # The lock CREATE INDEX takes: reads go on, every insert into the posts waits.
        holder = psycopg.connect(_conninfo())
        holder.execute("LOCK TABLE games_post IN SHARE MODE")
        first = stack.Worker(env, tmp_path / "first.log", queues="clock", beat=True,
                             folder=tmp_path)  # fmt: skip
        try:
            pid = stack.wait_for(
                lambda: _blocked_insert(db_name), timeout=90, what="the worker mid-night"
            )
            # Where it stands (asserted below): the game's row held, the night's input and
            # events written in its open transaction.
            writing = _tables_written_by(pid)
            row_held = _row_held(game)
            first.kill()
        finally:
            first.kill()
            holder.rollback()  # the index build gives up: the lock is released
            holder.close()

        # PostgreSQL ends the dead client's backend and rolls its transaction back.
        stack.wait_for(lambda: _backend_gone(pid), timeout=30, what="the dead worker's backend")
        game.refresh_from_db()
        assert game.phase == "night 1" and game.clock_failures == 0
        assert _written(game) == before  # not a row of the night: not resolved at all
        # ...though the worker had been killed mid-resolution, not before it began.
        assert row_held and {"games_gameinput", "games_gameevent"} <= writing

        with stack.worker(env, tmp_path, "second"):  # the next sweep, by another worker
            stack.wait_for(
                lambda: Game.objects.get(pk=game.pk).phase == "day 2",
                timeout=90,
                what="the next sweep to resolve the night",
            )
            seats = game.seats.filter(user__email_phase_changes=True).count()
            stack.wait_for(
                lambda: (
                    GameEmail.objects.filter(
                        game=game, template="phase", status=GameEmail.Status.SENT
                    ).count()
                    == seats
                ),
                timeout=60,
                what="the Day 2 emails to be sent",
            )

    # Resolved exactly once: one input ended the night, the stored events are the replay's
    # (none twice), each system post once, each player's Day 2 email once.
    assert _night_ends(game).count() == 1
    assert replay_mismatch(game) is None
    announced = list(
        Post.objects.filter(game=game, event__index__gte=before[1]).values_list("event", flat=True)
    )
    assert announced and len(announced) == len(set(announced))
    assert EmailSent.objects.filter(game=game, kind="phase", phase="day 2").count() == seats
    assert GameEmail.objects.filter(game=game, template="phase").count() == seats
    # Jon was the Coven's target and lives on his Survivalist's extra life: the night's
    # actions were resolved as submitted.
    assert GameEvent.objects.filter(game=game, kind="survival", data__player="jon").count() == 1
    assert sweep.clock_sweep() == {}  # and nothing is left for the clock
