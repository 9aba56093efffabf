"""The site's processes for tests that need them for real: a Redis server of the test's own
(so nothing else on the machine's Redis is touched), and Celery workers started as
`celery -A witchhunt worker` is in compose, on the database the test names.

Each process runs this checkout's code (cwd and PYTHONPATH are the checkout) with the
local settings and the environment the test gives it, in a process group of its own, so a
test can SIGKILL the worker and its pool children at once, as a lost machine would.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

ROOT = Path(settings.BASE_DIR)
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port, no snapshots unless it is
    stopped with `stop(save=True)`: the test may stop, kill, flush and start it again."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.process = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=1)

    def start(self) -> None:
        """Start it (again, on the same port, with what it saved if it was stopped with
        `stop(save=True)`)."""
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--dbfilename", "dump.rdb",
             "--maxmemory-policy", "noeviction"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                if self.client().ping():
                    return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.05)

    def stop(self, *, save: bool = False) -> None:
        """Shut it down (saving its data first when `save`, so `start` brings it back)."""
        try:
            self.client().shutdown(save=save, nosave=not save)
        except redis.ConnectionError:
            pass  # SHUTDOWN closes the connection
        self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@contextmanager
def private_redis(folder: Path):
    """A PrivateRedis, started; yields its URL and kills it after."""
    server = PrivateRedis(folder)
    server.start()
    try:
        yield server.url()
    finally:
        server.close()


def database_url(name: str | None = None) -> str:
    """The URL of the test's PostgreSQL server, for database `name` (the test database)."""
    db = connection.settings_dict
    name = name or db["NAME"]
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{name}"


def site_env(*, database: str, redis: str, **extra) -> dict[str, str]:
    """The environment of a process of the site on `database` (a URL) and `redis`."""
    return {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "witchhunt.settings.local",
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "SECRET_KEY": "tests-only-site-processes",
        **extra,
    }


def manage(*args: str, env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python manage.py ARGS` in a process of its own."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class Worker:
    """A `celery -A witchhunt worker` process (its pool children in its group)."""

    def __init__(self, env: dict, log: Path, *, queues: str, beat: bool, folder: Path):
        argv = [sys.executable, "-m", "celery", "-A", "witchhunt", "worker", "-Q", queues,
                "--concurrency=1", "--loglevel=INFO", f"--hostname={log.stem}@%h"]  # fmt: skip
        if beat:  # `make run`'s shape: beat in the worker, its schedule file in the folder
            argv += ["-B", f"--schedule={folder / 'celerybeat-schedule'}"]
        self.log = log
        self._out = log.open("w")
        self.process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self._out, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches the pool too
        )  # fmt: skip

    def kill(self) -> None:
        """SIGKILL the worker and its pool at once: no cleanup of any kind runs."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)
        self._out.close()

    def stop(self) -> None:
        """A warm shutdown (SIGTERM), then SIGKILL if it hangs."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def output(self) -> str:
        self._out.flush()
        return self.log.read_text()


@contextmanager
def worker(env: dict, folder: Path, name: str, *, queues="clock,email", beat=True):
    """A worker taking `queues` (with beat embedded, unless not `beat`), stopped after."""
    w = Worker(env, folder / f"{name}.log", queues=queues, beat=beat, folder=folder)
    try:
        yield w
    finally:
        w.stop()


def wait_for(predicate, *, timeout: float, what: str, every: float = 0.2):
    """Poll `predicate` until it returns something true; returns that, or fails naming
    `what`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
