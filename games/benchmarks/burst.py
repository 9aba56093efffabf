"""The clock under a burst, measured with real workers: 1,000 started games sharing one
deadline, advanced by two Celery worker processes on the clock's queue; and what 10,000
idle running games add to a sweep.

Needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL); without them it says so and skips.
It makes a throwaway database, and runs the workers as `celery -A witchhunt worker`
processes with the production settings against it, on an empty database of REDIS_URL's
Redis (the highest-numbered one, claimed with a key, emptied afterwards), with an SMTP
server of its own that accepts and drops every email. Where the emails have a queue of
their own, one email worker runs beside the clock's two, as in docker-compose.yml. It runs
the burst twice: once with each game's state cached as the web process leaves it (the
games are started here with the workers' cache and secret key: the normal case), once
with none cached, so that every game is replayed (a cache entry outlives a day at most).

The beat is played by the benchmark: it sends the beat's clock entry (CELERY_BEAT_SCHEDULE:
its task, options and interval) half a second before the deadline, and every interval
after, so the deadline falls just after a beat: the worst phase."""

import ast
import os
import re
import secrets
import shutil
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection
from django.test.utils import override_settings

from . import loadstack
from .world import LOCMEM, PAGES

IDLE_GAMES = 10_000
SWEEP_RUNS = 41
BEAT_BEFORE = 0.5  # seconds between the last beat before the deadline and the deadline
CLOCK_WORKERS = 2
GIVE_UP = 600.0  # seconds after the deadline
# Where the games of the "replayed" burst leave their states: not where the workers look.
IN_PROCESS = {"default": LOCMEM, "pages": PAGES}


def _skip_reason():
    if connection.vendor != "postgresql":
        return "needs PostgreSQL: set DATABASE_URL"
    if not settings.REDIS_URL:
        return "needs Redis: set REDIS_URL"
    return None


# --- a throwaway database and broker ------------------------------------------------------
@contextmanager
def _throwaway_database():
    """A fresh, migrated database of its own name (no clash with a test run's)."""
    test = connection.settings_dict.setdefault("TEST", {})
    saved = test.get("NAME")
    test["NAME"] = f"bench_burst_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        test["NAME"] = saved


def _database_url():
    db = connection.settings_dict
    user = f"{quote(db['USER'], safe='')}:{quote(db['PASSWORD'], safe='')}"
    return f"postgres://{user}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def _empty_redis():
    """The URL of an empty Redis database, claimed for the run (others may share the
    server) and emptied afterwards, as the load benchmark's."""
    url = loadstack.redis_claim(settings.REDIS_URL)
    try:
        yield url
    finally:
        loadstack.redis_release(url)


class _Sink(socketserver.StreamRequestHandler):
    """Just enough SMTP to take an email and drop it."""

    def handle(self):
        self.wfile.write(b"220 bench\r\n")
        in_data = False
        for line in self.rfile:
            if in_data:
                if line == b".\r\n":
                    in_data = False
                    self.server.emails += 1
                    self.wfile.write(b"250 ok\r\n")
            elif line[:4].upper() == b"DATA":
                in_data = True
                self.wfile.write(b"354 go on\r\n")
            elif line[:4].upper() == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


@contextmanager
def _smtp_sink():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Sink)
    server.daemon_threads = True
    server.emails = 0
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


# --- the games ----------------------------------------------------------------------------
def _idle_games(n):
    """n running games, none due for days: rows enough for the due query to skip (the
    sweep never opens them). Days and nights, reminders, a few paused."""
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game

    host = User.objects.create_user("bench-idle@example.com", player_name="BenchIdle")
    now = timezone.now()
    games = []
    for i in range(n):
        deadline = now + timedelta(hours=2, seconds=i * 25)
        night = i % 2 == 1
        games.append(
            Game(
                ruleset="witchhunt",
                title=f"Idle {i}",
                host=host,
                seats_count=8,
                seed=i,
                deal={},
                status=Game.Status.RUNNING,
                phase="night 1" if night else "day 1",
                deadline_at=deadline,
                midnight_at=now + (deadline - now) / 2 if night else None,
                next_reminder_at=deadline - timedelta(hours=1),
                paused_at=now if i % 50 == 0 else None,
            )
        )
    Game.objects.bulk_create(games, batch_size=1000)
    with connection.cursor() as cursor:  # the statistics autovacuum keeps in production
        cursor.execute("ANALYZE games_game")


def _sweep_ms():
    """Median milliseconds of each of the beat's sweeps when nothing is due."""
    from games.services import sweep

    sweeps = {"clock": sweep.clock_sweep}
    if hasattr(sweep, "reminder_sweep"):  # the reminders have a sweep of their own
        sweeps["reminder"] = sweep.reminder_sweep
    out = {}
    for name, run in sweeps.items():
        times = []
        for _ in range(SWEEP_RUNS):
            start = time.perf_counter()
            assert run() == {}
            times.append(time.perf_counter() - start)
        out[name] = statistics.median(times) * 1000
    return out


# --- the workers --------------------------------------------------------------------------
def _queue(task):
    routes = getattr(settings, "CELERY_TASK_ROUTES", None) or {}
    return routes.get(task, {}).get("queue", "celery")


def _bench_app(broker_url):
    from celery import Celery

    app = Celery("bench", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(broker_url=broker_url, broker_transport_options={})
    return app


@contextmanager
def _workers(app, queues, smtp_port, logs):
    """`celery -A witchhunt worker -Q queue --concurrency=1` processes, one per entry of
    `queues`, on the production settings; stopped (warm shutdown) afterwards."""
    environ = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "witchhunt.settings.production",
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": _database_url(),
        "REDIS_URL": app.conf.broker_url,
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_USE_TLS": "false",
        "DEFAULT_FROM_EMAIL": "Bench <bench@localhost>",
        "SITE_URL": "https://bench.localhost",
    }
    processes = []
    try:
        for i, queue in enumerate(queues):
            log = open(logs / f"{queue}-{i}.log", "w")  # noqa: SIM115 - closed below
            command = [sys.executable, "-m", "celery", "-A", "witchhunt", "worker"]
            command += ["-Q", queue, "--concurrency=1", "-n", f"bench-{queue}-{i}@%h"]
            process = subprocess.Popen(
                [*command, "--loglevel=INFO"],
                cwd=settings.BASE_DIR,
                env=environ,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            processes.append((process, log))
        started = time.monotonic()
        while len(app.control.ping(timeout=1.0)) < len(queues):
            if time.monotonic() - started > 120:
                raise RuntimeError(f"the workers did not start: see {logs}")
        yield
    finally:
        for process, _ in processes:
            process.terminate()
        for process, log in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


def _log_sizes(logs):
    return {path: path.stat().st_size for path in logs.glob("*.log")}


def _advanced_by_worker(logs, queue, since):
    """How many advances each clock worker logged ("clock sweep: {...}" lines) after the
    log sizes `since`."""
    counts = []
    for path in sorted(logs.glob(f"{queue}-*.log")):
        with path.open() as log:
            log.seek(since.get(path, 0))
            found = re.findall(r"clock sweep: (\{[^}]*\})", log.read())
        counts.append(sum(ast.literal_eval(c).get("advanced", 0) for c in found))
    return counts


def _purge(app, queues):
    """Drop what a burst left queued (its emails), so that the next starts alike."""
    with app.connection_for_write() as conn:
        for queue in set(queues):
            conn.default_channel.queue_purge(queue)


def _burst(app, burst_ids, sink):
    """Give the games one deadline, play the beat around it, and wait until every one has
    advanced, once each; returns the lags (seconds, sorted), the beat's interval and how
    many emails went out meanwhile."""
    from django.utils import timezone

    from games.models import Game, GameInput

    entry = settings.CELERY_BEAT_SCHEDULE["clock-sweep"]
    interval = float(entry["schedule"])
    games = Game.objects.filter(pk__in=burst_ids)
    deadline = timezone.now() + timedelta(seconds=3)
    games.update(deadline_at=deadline, next_reminder_at=None)
    emails_before = sink.emails
    beat = deadline.timestamp() - BEAT_BEFORE
    while games.filter(phase="day 1").exists():
        if time.time() >= beat:
            app.send_task(entry["task"], **entry.get("options", {}))
            beat += interval
        if time.time() - deadline.timestamp() > GIVE_UP:
            raise RuntimeError(f"not every game advanced within {GIVE_UP:.0f} s")
        time.sleep(0.05)
    started = games.values_list("phase_started_at", flat=True)
    lags = sorted((t - deadline).total_seconds() for t in started)
    advances = GameInput.objects.filter(game__in=burst_ids, step={"advance": "phase"}).count()
    assert advances == len(burst_ids), f"{advances} advances for {len(burst_ids)} games"
    assert not games.exclude(phase="night 1").exists()
    return lags, interval, sink.emails - emails_before


def run(write, options):
    reason = _skip_reason()
    if reason:
        write(f"clock.burst    skipped: {reason} (real workers need a real database and broker)")
        return
    from witchhunt.celery import app as project_app
    from witchhunt.settings.backends import cache_settings

    from .clock import started_games  # the same games as clock.sweep

    n = options.clock_games
    clock_queue = _queue("games.tasks.clock_sweep")
    email_queue = _queue("games.tasks.game_phase_emails")
    queues = [clock_queue] * CLOCK_WORKERS
    if email_queue != clock_queue:
        queues.append(email_queue)
    # The emails the games' start asks for go nowhere (the workers never see them).
    project_app.conf.update(broker_url="memory://localhost/", broker_transport_options={})
    logs = Path(tempfile.mkdtemp(prefix="bench-burst-"))  # kept if a worker fails
    with (
        _throwaway_database(),
        _empty_redis() as redis_url,
        override_settings(
            CACHES=cache_settings(redis_url, None),
            SECRET_KEY=secrets.token_urlsafe(50),
            DEBUG=False,
        ),
        _smtp_sink() as sink,
    ):
        empty = _sweep_ms()
        _idle_games(IDLE_GAMES)
        idle = _sweep_ms()
        app = _bench_app(redis_url)
        bursts = []
        with _workers(app, queues, sink.server_address[1], logs):
            for label, caches in (("cached", settings.CACHES), ("replayed", IN_PROCESS)):
                _purge(app, queues)
                with override_settings(CACHES=caches):
                    burst_ids = [g.pk for g in started_games(n)]
                since = _log_sizes(logs)
                lags, interval, emails = _burst(app, burst_ids, sink)
                split = _advanced_by_worker(logs, clock_queue, since)
                bursts.append((label, lags, emails, split))
    shutil.rmtree(logs)

    for name, ms in idle.items():
        write(
            f"clock.idle     {IDLE_GAMES:,} idle running games add {ms - empty[name]:.2f} ms "
            f"to a {name} sweep ({empty[name]:.2f} -> {ms:.2f} ms, median of {SWEEP_RUNS}; "
            f"measured, postgresql)"
        )
    shared = "" if email_queue == clock_queue else f" + 1 on '{email_queue}'"
    for label, lags, emails, split in bursts:
        write(
            f"clock.burst    {n:,} games sharing one deadline, states {label}, "
            f"{CLOCK_WORKERS} worker processes on '{clock_queue}'{shared}, beat every "
            f"{interval:.0f} s, the deadline {BEAT_BEFORE} s after a beat: the last advanced "
            f"{lags[-1]:.1f} s after it, the first {lags[0]:.1f} s, median "
            f"{statistics.median(lags):.1f} s (measured; advances per clock worker {split}; "
            f"{emails:,} emails sent meanwhile)"
        )
