"""A lab job's games as chunk tasks on real lab workers: separate `celery worker`
processes (concurrency 1 each, this worktree's code) on the Redis at REDIS_URL as broker,
result backend and cache, as the site runs them (games/lab/services/run.py).

Each test gives its workers a queue and a cache prefix of their own
(tests/games/lab/chunk_settings.py), so no other worker on that Redis takes its chunks,
and removes both at the end. Needs Redis: CI sets REDIS_URL (there a missing one fails).
"""

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from types import SimpleNamespace

import pytest
import redis
from celery import Celery
from celery.result import AsyncResult
from django.conf import settings
from django.core.cache import cache

from games.lab import jobs
from games.lab.services import lab_cancel, lab_start
from games.lab.services.run import rounds_key
from games.lab.simulation.estimate import Tally, estimate_of
from games.lab.simulation.play import play_one
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import Setup, find_suggested
from tests.factories import UserFactory
from witchhunt.celery import app as site_app

REDIS_URL = os.environ.get("REDIS_URL")
# The job of tests/games/lab/lab_daemon.py: a first estimate due at once, 200 games, the
# band at 50 each, 20 at each other size, 300 in all.
SMALL = {"LAB_FIRST_SECONDS": 0, "LAB_FIRST_GAMES": 200, "LAB_SIZE_GAMES": 20, "LAB_GAMES": 300}

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture
def lab_workers(settings, tmp_path):
    """`start(count, **LAB_settings)` starts `count` lab workers; `run(setup, seed)` starts a
    job and waits for its record to leave work. Everything stopped and removed afterwards."""
    if not REDIS_URL:
        if os.environ.get("CI"):
            pytest.fail("REDIS_URL is not set: CI must run the lab's workers over Redis")
        pytest.skip("needs Redis: set REDIS_URL, e.g. redis://127.0.0.1:6379/13")
    suffix = uuid.uuid4().hex[:12]
    queue, prefix = f"lab-test-{suffix}", f"witchhunt-test-{suffix}"
    routes = {
        task: {"queue": queue} if route["queue"] == "lab" else route
        for task, route in settings.CELERY_TASK_ROUTES.items()
    }
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "witchhunt.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
        },
    }
    app = Celery("lab-test", set_as_current=False)
    app.conf.update(
        broker_url=REDIS_URL, result_backend=REDIS_URL, task_routes=routes, task_ignore_result=True
    )
    processes = []

    def start(count, **lab):
        for name, value in lab.items():
            setattr(settings, name, value)
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.games.lab.chunk_settings",
            "PYTHONPATH": str(settings.BASE_DIR),
            "LAB_TEST_QUEUE": queue,
            "LAB_TEST_PREFIX": prefix,
            "LAB_TEST_SETTINGS": json.dumps(lab),
        }
        names = [f"lab{len(processes) + i}-{suffix}@here" for i in range(count)]
        for name in names:
            log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
            command = [sys.executable, "-m", "celery", "-A", "witchhunt", "worker", "-Q", queue]
            command += ["--concurrency=1", "-n", name, "--without-gossip", "--without-mingle"]
            process = subprocess.Popen(
                command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            processes.append(SimpleNamespace(process=process, log=log, name=name))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            answered = {name for reply in app.control.ping(timeout=0.5) for name in reply}
            if set(names) <= answered:
                return names
        raise AssertionError(f"the lab workers did not start: {_logs(tmp_path)}")

    def begin(setup, seed):
        assert lab_start(setup=setup, seed=seed, queued=False)
        app.send_task("games.tasks.lab_estimate", args=[setup.key(), seed])

    def run(setup, seed, timeout=180):
        begin(setup, seed)
        return wait(setup, seed, timeout)

    def wait(setup, seed, timeout=180):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            record = cache.get(jobs.record_key(setup.key(), seed))
            if record["state"] not in jobs.WORKING:
                return record
            time.sleep(0.1)
        raise AssertionError(f"the job did not end: {record['state']}; {_logs(tmp_path)}")

    yield SimpleNamespace(start=start, run=run, begin=begin, wait=wait, app=app, logs=tmp_path)
    for worker in processes:
        worker.process.send_signal(signal.SIGQUIT)  # a cold stop: nothing more is played
    for worker in processes:
        try:
            worker.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait()
        worker.log.close()
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(queue)
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"*{prefix}*"):
        client.delete(key)
    client.close()


def _logs(folder):
    return "\n".join(f"{p.name}:\n{p.read_text()[-3000:]}" for p in folder.glob("*.log"))


def alone(setup, games, seed, skill="typical"):
    """Games 0..games-1 played here one after another, as no chunk plays them."""
    tally = Tally()
    for i in range(games):
        tally.add(*play_one(setup, seed, i, skill=skill))
    return estimate_of(setup, tally, seed).as_dict()


def test_one_jobs_chunks_run_on_two_workers_to_the_estimate_played_in_one_process(lab_workers):
    setup, seed = find_suggested("werewolf-8"), 17
    names = lab_workers.start(2, **SMALL)
    record = lab_workers.run(setup, seed)
    assert record["state"] == jobs.DONE, record["error"]
    state = cache.get(rounds_key(setup.key(), seed))
    assert sorted(state["hosts"]) == sorted(names)  # chunks of this one job on both
    assert record["estimate"] == alone(setup, 300, seed)
    assert record["band"] == {s: alone(setup, 50, seed, s) for s in ("careless", "sharp")}
    sizes = [n for n in (8, 12, 16, 24, 48) if n != 8]
    assert record["sizes"] == [[n, alone(scaled(setup, n), 20, seed)] for n in sizes]
    assert record["asked"] == 300 + 2 * 50 + 20 * 4
    assert cache.get(jobs.progress_key(setup.key(), seed)) == record["asked"]


def test_two_jobs_started_together_take_turns_on_one_worker(lab_workers):
    """One worker process, two jobs queued one after the other: each plays a round, then
    the other, so when the first ends the second is well on its way (played one after the
    other, it would not have begun). Turns are rounds of LAB_CHUNKS_AHEAD chunks of about
    LAB_CHUNK_SECONDS each, so the chunks are kept short: at 0.2 s a round of this fast
    setup holds half the job, and the second job trails the first by that round."""
    setup = find_suggested("werewolf-8")
    lab = {**SMALL, "LAB_GAMES": 2000, "LAB_CHUNK_SECONDS": 0.02}
    lab_workers.start(1, **lab)
    lab_workers.begin(setup, 1)
    lab_workers.begin(setup, 2)
    seen = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        records = [cache.get(jobs.record_key(setup.key(), seed)) for seed in (1, 2)]
        done = [cache.get(jobs.progress_key(setup.key(), seed)) or 0 for seed in (1, 2)]
        seen.append(done)
        ended = [r["state"] not in jobs.WORKING for r in records]
        if any(ended):
            break
        time.sleep(0.05)
    assert any(ended) and not all(r["state"] == jobs.FAILED for r in records)
    asked = records[0]["asked"]
    other = done[ended.index(False)] if not all(ended) else asked
    states = [cache.get(rounds_key(setup.key(), seed)) for seed in (1, 2)]
    assert other >= asked / 2, (done, asked, [(s["round"], s["rates"]) for s in states])
    # Both were under way long before either ended.
    assert any(0 < a < asked / 2 and 0 < b < asked / 2 for a, b in seen), seen[:50]
    for seed in (1, 2):
        assert lab_workers.wait(setup, seed)["state"] == jobs.DONE


def test_cancelling_a_job_revokes_its_outstanding_chunks(lab_workers):
    setup, seed = find_suggested("witchhunt-12"), 5
    lab = {**SMALL, "LAB_FIRST_GAMES": 2000, "LAB_GAMES": 20000, "LAB_CHUNK_SECONDS": 1.0}
    lab_workers.start(1, **lab)
    lab_workers.begin(setup, seed)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # a round of chunks sized by the setup's speed
        state = cache.get(rounds_key(setup.key(), seed))
        if state and state["round"] >= 3:
            break
        time.sleep(0.05)
    # Into the round (its 8 chunks take 8 s on the one worker), past the callback's own
    # look at the flag once it has sent the round: the cancel's revoke is the only one.
    time.sleep(0.5)
    lab_workers.app.set_current()  # the cancel's revoke goes to these workers' broker
    try:
        assert lab_cancel(address=setup.key(), seed=seed, user=UserFactory(is_staff=True))
    finally:
        site_app.set_current()
    # The round out when the cancel came (or one issued meanwhile, which revokes its own).
    state = cache.get(rounds_key(setup.key(), seed))
    outstanding = state["chunks"]
    assert len(outstanding) == settings.LAB_CHUNKS_AHEAD
    results = [AsyncResult(task, app=lab_workers.app) for task in outstanding]
    deadline = time.monotonic() + 60
    # A waiting chunk is REVOKED at once (Celery 5.7 marks it in the backend; earlier
    # versions when the worker takes it); the one playing stays PENDING until it is done.
    while time.monotonic() < deadline and any(r.state == "PENDING" for r in results):
        time.sleep(0.2)
    states = [r.state for r in results]
    # The chunks played before the cancel came, and the one playing, finish; the ones
    # waiting (one worker takes them in order) are dropped unplayed.
    played = states.count("SUCCESS")
    assert played < len(states) and states == ["SUCCESS"] * played + ["REVOKED"] * (
        len(states) - played
    ), states
    record = lab_workers.wait(setup, seed, timeout=5)
    assert record["state"] == jobs.CANCELLED
    games = cache.get(jobs.progress_key(setup.key(), seed))
    time.sleep(2 * lab["LAB_CHUNK_SECONDS"] + 1)
    after = cache.get(rounds_key(setup.key(), seed))
    assert after["round"] == state["round"]  # no round issued after the cancel
    assert cache.get(jobs.progress_key(setup.key(), seed)) == games
    assert cache.get(jobs.record_key(setup.key(), seed))["state"] == jobs.CANCELLED


def test_a_game_that_fails_on_a_worker_fails_the_job_in_words(lab_workers):
    """A setup no form lets through (more cards than seats): the engine refuses it in a
    chunk, and the job's page says why."""
    broken = Setup.from_game_fields(
        "werewolf",
        4,
        {"mode": "explicit", "cards": [{"role": "werewolf"}] + [{"role": "nobody"}] * 3},
        {},
    )
    lab_workers.start(1, **SMALL)
    record = lab_workers.run(broken, 3)
    assert record["state"] == jobs.FAILED
    assert record["error"].endswith("unknown role 'nobody'")  # the engine's words
