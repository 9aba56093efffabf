"""The setup lab's speed: bot games of a 20-player setup per second, and the first estimate.

The issue's target: a first estimate within 2 s from at least 2,000 games of a 20-player
setup. One core's rate is measured apart from the first round as the lab's job plays it:
chunks of its first round's size over LAB_WORKERS processes (every core by default),
started for the round, and counted in the games' order as they arrive. With Redis, the
site's way too: a job's first estimate on one lab worker and on two (`lab.workers`).
"""

import os
import random
import signal
import subprocess
import sys
import time

from django.conf import settings

from games.engine.collector import collector_paused
from games.engine.playout import random_game
from games.lab.simulation import play
from games.lab.simulation.estimate import simulate
from games.lab.simulation.parallel import chunk_tallies
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import suggested

FIRST_GAMES = 2000
TARGET_SECONDS = 2.0
RATIO_TARGET = 3.0  # a typical bot game's CPU time over the engine's random playout's


def bench_setups():
    """20-player setups scaled from the suggested 24 (Witchhunt's has a Lover pair)."""
    return [scaled(suggested(r, 24), 20) for r in ("witchhunt", "werewolf")]


def one_core_rate(setup, seconds, seed=2026):
    """Bot games of `setup` per second in this process, over about `seconds`: per second
    of the clock, and per second of this process's CPU time (what a core would do alone
    on a machine that other work shares)."""
    simulate(setup, games=5, seed=seed)  # warm up imports and caches
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        simulate(setup, games=50, seed=seed + done)
        done += 50
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def bot_cost_ratio(setup, games, skill="typical", seed=2026):
    """The CPU time of a bot game of `skill` over the engine's random playout of the same
    dealt setup (games/engine/playout.py), summed over `games` deals. The two are timed
    in turn, game by game, in this one process: a load that slows one slows the other."""
    random_game(random.Random(seed), play.engine_setup(setup, seed))  # warm up
    engine = bots = 0.0
    clock = time.process_time
    with collector_paused():
        for i in range(games):
            s = play.game_seed(seed, i)
            record = play.engine_setup(setup, s)
            start = clock()
            random_game(random.Random(s), record)
            engine += clock() - start
            start = clock()
            play.play_game(record, random.Random(s), skill=skill)
            bots += clock() - start
    return bots / engine, engine / games, bots / games


def first_estimate(setup, workers, seed=2026):
    """(seconds for FIRST_GAMES games on `workers` processes, the games of a first estimate
    due at TARGET_SECONDS), as the lab's job plays its first round (games/lab/services/):
    the games in by FIRST_DRAW_SECONDS before it, when the job draws the estimate."""
    from games.lab.services import FIRST_CHUNK, FIRST_DRAW_SECONDS

    start = time.perf_counter()
    done = by_target = 0
    for tally in chunk_tallies(setup, seed, 0, FIRST_GAMES, workers, FIRST_CHUNK):
        done += tally.games
        if time.perf_counter() - start <= TARGET_SECONDS - FIRST_DRAW_SECONDS:
            by_target = done
    return time.perf_counter() - start, by_target


def run(write, options):
    workers = settings.LAB_WORKERS
    for setup in bench_setups():
        name = f"{setup.ruleset}, {setup.seats} players"
        rate, cpu_rate = one_core_rate(setup, options.seconds)
        write(
            f"lab.games    {name}: {rate:,.0f} bot games/s on one core "
            f"({cpu_rate:,.0f} per CPU second; load average {os.getloadavg()[0]:.1f})"
        )
        ratio, engine, bots = bot_cost_ratio(setup, max(50, int(options.seconds * 100)))
        write(
            f"lab.ratio    {name}: a typical bot game costs {ratio:.2f}x the engine's random "
            f"playout of the same deal ({bots * 1000:.2f} ms against {engine * 1000:.2f} ms of "
            f"CPU; target <= {RATIO_TARGET:g}x)"
        )
        took, by_target = first_estimate(setup, workers)
        write(
            f"lab.estimate {name}: the first {FIRST_GAMES:,} games in {took:.2f} s on "
            f"{workers} process{'es' if workers > 1 else ''} "
            f"({FIRST_GAMES / took:,.0f} games/s; a first estimate of {by_target:,} games "
            f"at {TARGET_SECONDS:g} s; target: >= {FIRST_GAMES:,} games within "
            f"{TARGET_SECONDS:g} s)"
        )
    for setup in bench_setups():
        run_workers(write, setup)


# --- the first estimate on one lab worker, then on two ------------------------------------
WORKER_COUNTS = (1, 2)


class _Operator:
    """Who cancels the bench's jobs once their first estimate is in (services/cancel.py)."""

    pk = 0
    is_authenticated = is_staff = True


def workers_first_estimate(setup, count, seed):
    """(games in the first estimate, seconds until it was on the page, how many workers
    played its games) of a job of `setup` on
    `count` lab workers (`celery worker --concurrency=1` processes, these settings, a queue
    of their own on REDIS_URL's Redis), the job started as the site starts it."""
    import uuid

    from celery import Celery
    from django.core.cache import cache

    from games.lab import jobs
    from games.lab.services import lab_cancel, lab_start
    from games.lab.services.run import cancel_key, rounds_key

    queue = f"lab-bench-{uuid.uuid4().hex[:12]}"
    app = Celery("lab-bench", set_as_current=False)
    app.conf.update(broker_url=settings.REDIS_URL, broker_transport_options={})
    env = {**os.environ, "LAB_QUEUE": queue, "PYTHONPATH": str(settings.BASE_DIR)}
    env.setdefault("DJANGO_SETTINGS_MODULE", "witchhunt.settings.local")
    names = [f"lab-bench-{i}-{queue}@%h" for i in range(count)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "witchhunt", "worker", "-Q", queue]
            + ["--concurrency=1", "-n", name, "--without-gossip", "--without-mingle"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in names
    ]
    address = setup.key()
    try:
        started = time.monotonic()
        while len(app.control.ping(timeout=1.0)) < count:
            if time.monotonic() - started > 120:
                raise RuntimeError("the lab workers did not start")
        assert lab_start(setup=setup, seed=seed, queued=False)
        sent = time.monotonic()
        app.send_task("games.tasks.lab_estimate", args=[address, seed], queue=queue)
        while True:
            record = cache.get(jobs.record_key(address, seed))
            if record["estimate"] or record["state"] not in jobs.WORKING:
                took = time.monotonic() - sent
                break
            if time.monotonic() - sent > 60:
                raise RuntimeError("no first estimate within 60 s")
            time.sleep(0.01)
        lab_cancel(address=address, seed=seed, user=_Operator())
        games = (record["estimate"] or {}).get("games", 0)
        hosts = len((cache.get(rounds_key(address, seed)) or {}).get("first_hosts", []))
    finally:
        for process in processes:
            process.send_signal(signal.SIGQUIT)  # a cold stop: the bench's chunks are dropped
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)
        keys = (jobs.record_key, jobs.progress_key, jobs.summary_key, rounds_key, cancel_key)
        cache.delete_many([key(address, seed) for key in keys])
    return games, took, hosts


def run_workers(write, setup):
    if not settings.REDIS_URL:
        write("lab.workers  skipped: needs Redis (REDIS_URL), the lab workers' broker")
        return
    name = f"{setup.ruleset}, {setup.seats} players"
    found = []
    for count in WORKER_COUNTS:
        seed = int.from_bytes(os.urandom(4), "big")  # never an estimate kept already
        games, took, hosts = workers_first_estimate(setup, count, seed)
        found.append(games)
        write(
            f"lab.workers  {name}: a first estimate of {games:,} games on {count} lab "
            f"worker{'s' if count > 1 else ''} (concurrency 1; {hosts} played it), on the page "
            f"after {took:.2f} s "
            f"(LAB_FIRST_SECONDS {settings.LAB_FIRST_SECONDS:g}; load average "
            f"{os.getloadavg()[0]:.1f})"
        )
    if found[0]:
        write(f"lab.workers  {name}: {found[-1] / found[0]:.2f}× the games on two workers")
