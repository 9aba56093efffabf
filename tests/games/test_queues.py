"""The two queues (settings.CELERY_TASK_ROUTES): the clock's sweeps on `clock`, every email
and the reminder sweep on `email`, every task on one of them (compose's workers take
only those two); and a burst of due games asks for more clock sweeps on `clock`, which
the other clock workers take."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services import sweep
from tests.broker import broker_queue
from tests.factories import UserFactory
from witchhunt.celery import app

CLOCK = {"games.tasks.clock_sweep", "games.tasks.clock_sweep_more"}
EMAIL = {
    "games.tasks.reminder_sweep",
    "games.tasks.digest_sweep",
    "games.tasks.game_phase_emails",
    "games.tasks.game_role_emails",
    "games.tasks.game_result_email",
    "games.tasks.post_notification_emails",
    "games.tasks.vote_alerts",
    "games.tasks.notice_emails",
    "games.tasks.emails_send",
    "games.tasks.email_sweep",
    "games.tasks.held_jobs_sweep",
    "accounts.tasks.send_account_email",
    "games.push.tasks.push_member_told",
    "games.push.tasks.push_again",
}
LAB = {"games.tasks.lab_estimate", "games.lab.tasks.lab_chunk", "games.lab.tasks.lab_round"}
WEBHOOKS = {"games.webhooks.tasks.webhooks_send", "games.webhooks.tasks.webhooks_sweep"}


def _queue(task_name):
    return app.amqp.router.route({}, task_name)["queue"].name


def test_every_task_of_ours_goes_to_the_clock_or_the_email_queue():
    import accounts.tasks  # noqa: F401 - what the worker's autodiscovery imports
    import games.reading.tasks  # noqa: F401
    import games.tasks  # noqa: F401
    import games.webhooks.tasks  # noqa: F401

    ours = {name for name in app.tasks if name.startswith(("games.", "accounts."))}
    assert ours == CLOCK | EMAIL | LAB | WEBHOOKS
    assert {name: _queue(name) for name in ours} == {
        **dict.fromkeys(CLOCK, "clock"),
        **dict.fromkeys(EMAIL, "email"),
        **dict.fromkeys(LAB, "lab"),
        **dict.fromkeys(WEBHOOKS, "webhooks"),
    }


def test_beat_sends_each_entry_to_its_queue():
    from django.conf import settings

    queues = {k: _queue(v["task"]) for k, v in settings.CELERY_BEAT_SCHEDULE.items()}
    assert queues == {
        "clock-sweep": "clock",
        "reminder-sweep": "email",
        "email-sweep": "email",
        "held-jobs-sweep": "email",
        "digest-sweep": "email",
        "webhooks-sweep": "webhooks",
    }


@pytest.fixture
def clock_queue():
    """The clock queue of the in-memory broker (test settings), emptied before and after."""
    with broker_queue("clock") as queue:
        yield queue


def _due_games(n, now):
    """n running games past their deadline: bare rows without seats, so that each one's
    resolution fails (recorded, pushed back) and the sweep moves on."""
    host = UserFactory()
    Game.objects.bulk_create(
        Game(
            ruleset="witchhunt",
            title=f"due {i}",
            host=host,
            seats_count=8,
            seed=i,
            deal={},
            status=Game.Status.RUNNING,
            phase="day 1",
            deadline_at=now - timedelta(seconds=1),
        )
        for i in range(n)
    )


@pytest.mark.slow
@pytest.mark.django_db
def test_a_burst_asks_for_more_clock_sweeps_on_the_clock_queue(
    clock_queue, django_capture_on_commit_callbacks
):
    now = timezone.now()
    _due_games(2 * sweep.FAN_OUT_GAMES + 1, now)
    assert sweep.fan_out(now) == 2
    with django_capture_on_commit_callbacks(execute=True):
        counts = sweep.clock_sweep(now)
    assert counts == {sweep.FAILED: 2 * sweep.FAN_OUT_GAMES + 1}
    names = [clock_queue.get(timeout=1).headers["task"] for _ in range(clock_queue.qsize())]
    assert names == ["games.tasks.clock_sweep_more"] * 2
    # The sweeps it asked for share nothing further: they only sweep.
    with django_capture_on_commit_callbacks(execute=True) as asked:
        assert sweep.clock_sweep(now, share=False) == {}  # all pushed back by now
    assert asked == [] and clock_queue.qsize() == 0


@pytest.mark.django_db
def test_a_handful_of_due_games_is_one_sweeps_work(clock_queue, django_capture_on_commit_callbacks):
    now = timezone.now()
    _due_games(sweep.FAN_OUT_GAMES - 1, now)
    assert sweep.fan_out(now) == 0
    with django_capture_on_commit_callbacks(execute=True) as asked:
        sweep.clock_sweep(now)
    assert asked == [] and clock_queue.qsize() == 0


@pytest.mark.django_db
def test_a_huge_burst_asks_for_at_most_fan_out_max_more(clock_queue):
    now = timezone.now()
    _due_games(sweep.FAN_OUT_GAMES * (sweep.FAN_OUT_MAX + 3), now)
    assert sweep.fan_out(now) == sweep.FAN_OUT_MAX


@pytest.mark.django_db
def test_a_sweep_that_spends_its_budget_asks_for_one_more_at_once(
    clock_queue, django_capture_on_commit_callbacks, monkeypatch
):
    """Rather than leave the rest of a burst to the next beat."""
    now = timezone.now()
    _due_games(1, now)
    monkeypatch.setattr(sweep, "SWEEP_SECONDS", 0.0)  # spent before the first game
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.clock_sweep(now, share=False) == {}
    assert [clock_queue.get(timeout=1).headers["task"]] == ["games.tasks.clock_sweep_more"]
    assert clock_queue.qsize() == 0
