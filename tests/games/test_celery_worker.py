"""The beat's task end to end in a real Celery worker (Celery's own test worker, in a
thread) over a real broker: what `make run` and the compose worker run.

Needs Redis: CI sets REDIS_URL. The task goes through the broker and the worker thread
reads the game from the database, so the test commits (transaction=True).
"""

import json
import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connections
from django.utils import timezone

from games.models import Game, GameInput
from tests.games.conftest import make_game
from tests.production_env import PRODUCTION_ENV

REDIS_URL = os.environ.get("REDIS_URL")

needs_redis = pytest.mark.skipif(
    not REDIS_URL,
    reason="needs a Redis broker: set REDIS_URL (CI does), e.g. redis://127.0.0.1:6379/0",
)


@pytest.fixture
def worker_app():
    """An app configured like witchhunt/celery.py but on the Redis broker, its routes
    (CELERY_TASK_ROUTES) renamed to queues of its own, so no other worker on that Redis
    takes this test's task; the worker thread takes the renamed `clock` queue alone."""
    app = Celery("witchhunt-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    suffix = uuid.uuid4().hex
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    queues = {name: f"{name}-test-{suffix}" for name in routed}
    routes = {t: {"queue": queues[r["queue"]]} for t, r in settings.CELERY_TASK_ROUTES.items()}
    app.conf.update(
        broker_url=REDIS_URL,
        broker_transport_options={},
        task_routes=routes,
        task_default_queue=f"default-test-{suffix}",
        task_always_eager=False,
    )
    app.finalize()  # binds the @shared_task tasks (games/tasks.py) to this app
    app.test_queue = queues["clock"]
    yield app
    with app.connection_for_write() as conn:  # leave nothing behind on the broker
        for queue in queues.values():
            conn.default_channel.queue_delete(queue)


@pytest.mark.slow
@needs_redis
@pytest.mark.django_db(transaction=True)
def test_celery_worker_runs_the_beat_task_and_a_due_game_advances(
    worker_app, moderator, cast_users
):
    game = make_game(moderator, cast_users)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    task_name = settings.CELERY_BEAT_SCHEDULE["clock-sweep"]["task"]
    assert task_name in worker_app.tasks

    worker = start_worker(
        worker_app,
        pool="solo",
        perform_ping_check=False,
        loglevel="WARNING",
        queues=[worker_app.test_queue],
    )
    with worker:
        worker_app.send_task(task_name)  # what beat sends, routed to the clock's queue
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            game.refresh_from_db()
            if game.phase != "day 1":
                break
            time.sleep(0.2)
    connections.close_all()

    assert game.phase == "night 1"
    assert GameInput.objects.filter(game=game, step={"advance": "phase"}).count() == 1
    assert game.deadline_at > timezone.now() + timedelta(hours=23)


# --- `make run` and compose run the same schedule and task code ---------------------------
ROOT = Path(settings.BASE_DIR)
PROBE = """
import json
from witchhunt.celery import app
app.loader.import_default_modules()
schedule = app.conf.beat_schedule
print(json.dumps({
    "schedule": {k: [v["task"], v["schedule"]] for k, v in schedule.items()},
    "registered": sorted(t for t in app.tasks if t.startswith("games.")),
    "module": app.tasks["games.tasks.clock_sweep"].run.__module__,
}))
"""


def _celery_view(settings_module, extra_env):
    """The beat schedule and tasks a `celery -A witchhunt` process sees with these settings."""
    environ = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": settings_module, **extra_env}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_make_run_and_compose_schedule_the_same_sweep_tasks():
    local = _celery_view("witchhunt.settings.local", {})
    production = _celery_view("witchhunt.settings.production", PRODUCTION_ENV)
    assert local == production
    assert local["schedule"] == {
        "clock-sweep": ["games.tasks.clock_sweep", 10.0],
        "reminder-sweep": ["games.tasks.reminder_sweep", 30.0],
        "email-sweep": ["games.tasks.email_sweep", 30.0],
        "held-jobs-sweep": ["games.tasks.held_jobs_sweep", 30.0],
        "digest-sweep": ["games.tasks.digest_sweep", 300.0],
        "webhooks-sweep": ["games.webhooks.tasks.webhooks_sweep", 10.0],
    }
    assert local["module"] == "games.tasks"
    assert {"games.tasks.clock_sweep", "games.tasks.game_phase_emails"} <= set(local["registered"])


def test_make_run_embeds_beat_and_compose_runs_exactly_one_beat_on_the_same_app():
    run_local = (ROOT / "scripts" / "run-local").read_text()
    # One worker with beat takes the clock's, the email's and the webhooks' queues
    # (settings.CELERY_TASK_ROUTES).
    assert "celery -A witchhunt worker -B -Q clock,email,webhooks" in run_local
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name in ("clock-worker", "email-worker"):
        assert services[name]["command"][:4] == ["celery", "-A", "witchhunt", "worker"], name
    assert services["beat"]["command"][:4] == ["celery", "-A", "witchhunt", "beat"]
    assert [n for n, s in services.items() if "beat" in s.get("command", [])] == ["beat"]
