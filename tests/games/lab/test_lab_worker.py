"""A lab job end to end in a real Celery worker (Celery's own test worker, in a thread): the
lab page starts it, the `lab_estimate` task goes through the broker to the worker taking the
`lab` queue, and the estimate's page shows its progress as it plays, then the answer.

The broker is the test settings' in-memory transport and the cache their in-process one:
both are shared by the test's thread and the worker's, as Redis is shared by web and the
workers in production (tests/games/test_celery_worker.py runs the clock over Redis)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from games.lab import jobs
from games.lab.selectors import lab_result
from games.lab.simulation.setups import find_suggested
from witchhunt.celery import app


@pytest.fixture
def lab_worker(settings):
    """A worker thread on the project's app taking the `lab` queue, emptied first."""
    # The first estimate is due at once: it comes after the first short chunk of games,
    # long before the 200 the first round asks for.
    settings.LAB_FIRST_SECONDS = 0
    settings.LAB_FIRST_GAMES = 200
    settings.LAB_SIZE_GAMES = 20
    settings.LAB_GAMES = 500
    with app.connection_for_write() as conn:
        conn.SimpleQueue("lab").clear()
    worker = start_worker(
        app, pool="solo", perform_ping_check=False, loglevel="WARNING", queues=["lab"]
    )
    with worker:
        yield worker


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the worker's start closes the connections
def test_a_started_job_reports_its_progress_and_finishes(
    lab_worker, client, member, django_capture_on_commit_callbacks
):
    setup = find_suggested("werewolf-8")
    client.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("lab"), {"suggested": "werewolf-8"})
    assert response["Location"] == reverse("lab_result", kwargs={"key": setup.key()})

    seen = []  # (state, games done) as the page would show them, while the worker plays
    estimated = set()  # the games behind each estimate shown
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        result = lab_result(setup.key())
        seen.append((result.state, result.done))
        estimated.add(result.games)
        if not result.working:
            break
        time.sleep(0.02)

    # The setup itself, its skill band (a quarter of the first 200 games at each end), then
    # 20 games at each other suggested size.
    asked = 500 + 2 * 50 + 20 * 4
    assert seen[-1] == (jobs.DONE, asked), seen[-1]
    assert result.games == 500 and sum(t.wins for t in result.teams) == 500
    assert [r.seats for r in result.sizes] == [8, 12, 16, 24, 48]
    band = cache.get(jobs.record_key(setup.key(), settings.LAB_SEED))["band"]
    assert [band[s]["games"] for s in ("careless", "sharp")] == [50, 50]
    # Progress was shown on the way: some games done but not all, a first estimate on the
    # page before the last, and the count never went back.
    counts = [done for _, done in seen]
    assert any(0 < done < asked for done in counts)
    assert jobs.REFINING in {state for state, _ in seen}
    assert counts == sorted(counts)
    assert min(estimated - {0}) < 200  # the first estimate, on time with a few games

    page = client.get(response["Location"]).content.decode()
    assert "Done: the estimate is final." in page and "<svg" in page

    # Asked again, the cached answer is shown and no job is queued.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        client.post(reverse("lab"), {"suggested": "werewolf-8"})
    assert callbacks == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("queues", "warm", "nicer"), [("lab", "True", "10"), ("clock,email", "False", "0")]
)
def test_a_lab_worker_draws_a_chart_before_its_pool_starts(queues, warm, nicer):
    """The first chart in a process costs over a second (matplotlib's import and fonts), in
    the 2 s a first estimate is due in: a lab worker pays it before its pool processes fork,
    a worker without the lab queue never does."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "witchhunt.settings.test"}
    ran = subprocess.run(
        [sys.executable, "-m", "tests.games.lab.lab_daemon", queues],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["False", warm, nicer]  # its chunks yield to the site's work


def test_the_lab_task_is_routed_to_its_own_queue():
    assert settings.CELERY_TASK_ROUTES["games.tasks.lab_estimate"] == {"queue": "lab"}


def test_make_run_and_compose_give_the_lab_a_worker_of_its_own():
    """A simulation takes minutes of CPU: no worker that sweeps the clock takes it."""
    root = Path(settings.BASE_DIR)
    commands = [
        line.split()
        for line in (root / "scripts" / "run-local").read_text().splitlines()
        if line.startswith(".venv/bin/celery")
    ]
    queues = [c[c.index("-Q") + 1].split(",") for c in commands]
    assert ["lab"] in queues and all(q == ["lab"] or "lab" not in q for q in queues)
    services = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    command = services["lab-worker"]["command"]
    assert command[command.index("-Q") + 1] == "lab"
