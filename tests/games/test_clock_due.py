"""Game.next_due_at, the one time the clock's sweep looks at: the database derives it
from the deadline, midnight, next reminder, retry time, status and pause, so every path
that changes one of them (the services, part of the early end in services/inputs.py, and
QuerySet.update) keeps it right; and the sweep's due query reads it on its index
(PostgreSQL's plan, below)."""

import itertools
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game, GameInput
from games.services import sweep
from tests.factories import UserFactory
from tests.games.conftest import T0, make_game

DAY = timedelta(hours=72)
NIGHT = timedelta(hours=24)
H = timedelta(hours=1)
TICK = timedelta(microseconds=1)


def _rule(row):
    """The sweep's rule written out in Python: a running, unpaused game is due at its
    earliest deadline, midnight or reminder, but not before its retry time."""
    if row.status != Game.Status.RUNNING or row.paused_at is not None:
        return None
    times = [t for t in (row.deadline_at, row.midnight_at, row.next_reminder_at) if t]
    if not times:
        return None
    return max(min(times), row.clock_retry_at or min(times))


def _due_at(game, expected):
    """The stored next_due_at is `expected`, the rule's answer for the row, and the sweep
    finds the game due from that moment on, not a microsecond before."""
    row = Game.objects.get(pk=game.pk)
    assert row.next_due_at == expected
    assert _rule(row) == expected
    if expected is not None:
        assert not sweep.due(expected - TICK).filter(pk=game.pk).exists()
        assert sweep.due(expected).filter(pk=game.pk).exists()
    else:
        assert not sweep.due(T0 + timedelta(days=3650)).filter(pk=game.pk).exists()
    return row


# --- the derivation, NULLs included (PostgreSQL's LEAST skips them, SQLite's MIN does not) ---
@pytest.mark.django_db
def test_next_due_at_follows_the_rule_for_every_mix_of_times_and_nulls():
    host = UserFactory()
    t = [T0 + timedelta(hours=h) for h in range(5)]
    mixes = list(
        itertools.product(
            Game.Status.values,  # open, running, finished
            (None, t[4]),  # paused_at
            (None, t[2]),  # deadline_at
            (None, t[1], t[3]),  # midnight_at
            (None, t[0], t[3]),  # next_reminder_at
            (None, t[1], t[4]),  # clock_retry_at
        )
    )
    Game.objects.bulk_create(
        Game(
            ruleset="witchhunt",
            title=str(i),
            host=host,
            seats_count=8,
            seed=i,
            deal={},
            status=status,
            paused_at=paused,
            deadline_at=deadline,
            midnight_at=midnight,
            next_reminder_at=reminder,
            clock_retry_at=retry,
        )
        for i, (status, paused, deadline, midnight, reminder, retry) in enumerate(mixes)
    )
    rows = list(Game.objects.all())
    assert len(rows) == len(mixes) == 324
    wrong = [(r.title, r.next_due_at, _rule(r)) for r in rows if r.next_due_at != _rule(r)]
    assert wrong == []
    # Both kinds of answer occur: the test is not passing on NULLs alone.
    assert sum(r.next_due_at is None for r in rows) in range(1, len(rows))
    # QuerySet.update keeps it right too: the database derives it on every write.
    Game.objects.update(midnight_at=None, next_reminder_at=t[0], clock_retry_at=None)
    for row in Game.objects.all():
        assert row.next_due_at == _rule(row)
        if row.status == Game.Status.RUNNING and row.paused_at is None:
            assert row.next_due_at == t[0]


# --- every path that moves a deadline, midnight, reminder, retry or pause -----------------
def test_a_started_game_is_due_at_its_first_reminder(game):
    _due_at(game, T0 + DAY - 24 * H)


def test_a_game_without_reminders_is_due_at_its_deadline(traveller, moderator, cast_users):
    _due_at(make_game(moderator, cast_users, reminder_hours=[]), T0 + DAY)


def test_an_open_game_is_never_due(moderator, cast_users):
    _due_at(make_game(moderator, cast_users, start=False), None)


def test_a_new_night_is_due_at_its_midnight_then_its_reminder(game, traveller, cast_users):
    for voter in ("ann", "cat", "eve", "fay", "gus"):  # a lynch opens the night at T0
        services.vote_cast(game=game, user=cast_users[voter], target="hal")
    _due_at(game, T0 + NIGHT / 2)
    traveller.move_to(T0 + NIGHT / 2)
    assert sweep.clock_tick() == sweep.MIDNIGHT
    _due_at(game, T0 + NIGHT - H)  # the night's one reminder (a 24 h one would not fit)


def test_a_sent_reminder_makes_the_next_one_due(game, traveller):
    traveller.move_to(T0 + DAY - 24 * H)
    assert sweep.reminder_tick() == sweep.REMINDED
    _due_at(game, T0 + DAY - H)
    traveller.move_to(T0 + DAY - H)
    assert sweep.reminder_tick() == sweep.REMINDED
    _due_at(game, T0 + DAY)  # no reminder left: the deadline


def test_an_advance_makes_the_next_phase_due(game, traveller):
    traveller.move_to(T0 + DAY)
    assert sweep.clock_tick() == sweep.ADVANCED
    _due_at(game, T0 + DAY + NIGHT / 2)


def test_pause_is_never_due_and_resume_moves_it_by_the_pause(game, traveller, moderator):
    traveller.move_to(T0 + 5 * H)
    services.clock_pause(game=game, by=moderator)
    _due_at(game, None)
    traveller.move_to(T0 + 9 * H)
    services.clock_resume(game=game, by=moderator)
    _due_at(game, T0 + DAY - 24 * H + 4 * H)


def test_extend_and_shorten_move_it(game, traveller, moderator):
    services.clock_extend(game=game, by=moderator, delta=6 * H)
    _due_at(game, T0 + DAY + 6 * H - 24 * H)
    services.clock_shorten(game=game, by=moderator, delta=60 * H)
    # 18 h left: the 24 h reminder is behind us, so it is due at once.
    _due_at(game, T0 + 18 * H - 24 * H)


def test_the_early_end_moves_it_to_the_grace(traveller, moderator, cast_users):
    """services.inputs.phase_end_if_ready moves the deadline; nothing there names
    next_due_at, and it follows."""
    game = make_game(moderator, cast_users, early_end=True, reminder_hours=[])
    traveller.move_to(T0 + 5 * H)
    for user in cast_users.values():
        services.phase_lock_in(game=game, user=user)
    _due_at(game, T0 + 6 * H)


def test_a_failure_waits_for_its_retry_and_retry_now_clears_it(game, traveller, moderator):
    GameInput.objects.create(game=game, index=0, step={"actor": "ann", "action": "nonsense"})
    Game.objects.filter(pk=game.pk).update(inputs_count=1)
    due = T0 + DAY
    traveller.move_to(due)
    assert sweep.clock_tick() == sweep.FAILED
    _due_at(game, due + sweep.backoff(1))
    services.clock_retry(game=game, by=moderator)
    _due_at(game, T0 + DAY - 24 * H)  # due again at once: the passed reminder time


def test_the_end_of_the_game_is_never_due(game, moderator):
    services.stalemate_declare(game=game, by=moderator)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    _due_at(game, None)


def test_queryset_update_of_a_deadline_moves_it(game):
    Game.objects.filter(pk=game.pk).update(deadline_at=T0 + H)
    _due_at(game, T0 + H)  # now before the stored reminder
    Game.objects.filter(pk=game.pk).update(deadline_at=T0 + 2 * DAY)
    _due_at(game, T0 + DAY - 24 * H)  # the reminder comes first again
    Game.objects.filter(pk=game.pk).update(next_reminder_at=None)
    _due_at(game, T0 + 2 * DAY)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    _due_at(game, None)


# --- the migration fills it for the games that exist -------------------------------------
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_next_due_at_for_existing_games():
    before = [("games", "0005_moderate_any_game")]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()  # 0006 and whatever follows it
    executor.migrate(before)
    try:
        host = UserFactory()  # the accounts tables are as they are now
        fields = {"ruleset": "witchhunt", "seats_count": 8, "seed": 1, "deal": {}}
        fields["host_id"] = host.pk
        deadline = timezone.now()
        OldGame = executor.loader.project_state(before).apps.get_model("games", "Game")
        running = OldGame.objects.create(
            title="running", status="running", deadline_at=deadline, **fields
        )
        paused = OldGame.objects.create(
            title="paused", status="running", deadline_at=deadline, paused_at=deadline, **fields
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    assert set(latest) <= set(MigrationRecorder(connection).applied_migrations())
    assert Game.objects.get(pk=running.pk).next_due_at == deadline
    assert Game.objects.get(pk=paused.pk).next_due_at is None


# --- the due query on its index (PostgreSQL) ---------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the query plan is PostgreSQL's: set DATABASE_URL to a PostgreSQL database",
)
@pytest.mark.django_db
def test_the_due_query_reads_the_index_among_many_idle_games():
    host = UserFactory()
    now = timezone.now()
    fields = {"ruleset": "witchhunt", "host": host, "seats_count": 8, "deal": {}}
    idle = [  # running games whose deadlines are days away, a few of them paused
        Game(
            title="idle",
            seed=i,
            status=Game.Status.RUNNING,
            deadline_at=now + timedelta(minutes=i),
            next_reminder_at=now + timedelta(minutes=i // 2 + 1),
            paused_at=now if i % 50 == 0 else None,
            **fields,
        )
        for i in range(5000)
    ]
    done = [Game(title="over", seed=i, status=Game.Status.FINISHED, **fields) for i in range(2000)]
    Game.objects.bulk_create(idle + done)
    Game.objects.filter(pk=idle[7].pk).update(deadline_at=now - H)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")
    # The sweep's own queries: how many more sweeps a burst wants, and the claim.
    with CaptureQueriesContext(connection) as queries:
        assert sweep.fan_out(now) == 0
        assert sweep.clock_tick(now) == sweep.FAILED  # claimed; a bare row cannot advance
    assert Game.objects.get(pk=idle[7].pk).clock_failures == 1
    count, claim = [q["sql"] for q in queries.captured_queries if "games_game" in q["sql"]][:2]
    assert "FOR UPDATE SKIP LOCKED" in claim
    for sql in (count, claim):
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "game_next_due_idx" in plan and "Seq Scan" not in plan, plan
