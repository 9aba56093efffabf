"""The production shape on this machine, for the load benchmark (load.py): a database and a
Redis database of its own, a mail server that keeps count, and gunicorn and the Celery
processes started as docker-compose.yml starts them, on loopback only.

The commands and the environment are read from docker-compose.yml on every run, so the
benchmark starts what compose starts (a worker service added there is started here too).
Only what must differ without Docker changes: gunicorn binds 127.0.0.1, the servers are
the local ones, /tmp paths go to the run's own folder, and each Celery process gets a node
name of its own (compose gives each container its own host name). The load tool stands
where Caddy stands: it connects from 127.0.0.1, the web service's trusted proxy, and sends
X-Forwarded-Proto and X-Forwarded-For as Caddy does.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
LOOPBACK = "127.0.0.1"
HOST = "localhost"  # the name the proxy serves (compose's SITE_ADDRESS default)
APP_PROGRAMS = ("python", "gunicorn", "celery")
# Dockerfile's settings for every container that names none.
DEFAULT_SETTINGS = "witchhunt.settings.production"
# From the developer's environment only what a process needs to run; never their servers.
PASSED_ON = ("PATH", "LANG", "LC_ALL", "TMPDIR")
_VARIABLE = re.compile(r"\$\{\w+(?::?-(?P<default>[^}]*)|:?\?[^}]*)?\}")


def unavailable() -> str | None:
    """Why the load benchmark cannot run here, or None."""
    database, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    missing = []
    if urlsplit(database).scheme not in ("postgres", "postgresql", "pgsql"):
        missing.append("DATABASE_URL pointing at PostgreSQL")
    if urlsplit(redis).scheme not in ("redis", "rediss"):
        missing.append("REDIS_URL")
    for module in ("gunicorn", "httpx", "yaml"):
        if find_spec(module) is None:
            missing.append(f"{module} installed (pip install -e '.[dev]')")
    return f"needs {', '.join(missing)}" if missing else None


# --- what compose runs ------------------------------------------------------------------
@dataclass
class Service:
    name: str
    argv: list[str]
    env: dict[str, str]

    @property
    def kind(self) -> str:
        """One of migrate, web, beat and worker (or other)."""
        if self.argv[0] == "gunicorn":
            return "web"
        if self.argv[0] == "celery":
            return "beat" if "beat" in self.argv else "worker"
        return "migrate" if "migrate" in self.argv else "other"


def _interpolate(value) -> str:
    """Compose's ${NAME:-default} as its default; ${NAME:?...} and ${NAME} as empty (the
    benchmark supplies every value compose requires)."""
    return _VARIABLE.sub(lambda m: m.group("default") or "", str(value)).replace("$$", "$")


def compose_services(path: Path = COMPOSE) -> dict[str, Service]:
    """docker-compose.yml's app services (those that run python, gunicorn or celery)."""
    import yaml

    services = {}
    for name, spec in yaml.safe_load(path.read_text())["services"].items():
        command = spec.get("command")
        if not command:
            continue
        argv = command.split() if isinstance(command, str) else [str(a) for a in command]
        if argv[0] not in APP_PROGRAMS:
            continue
        environment = spec.get("environment") or {}
        if isinstance(environment, list):  # the KEY=VALUE form
            environment = dict(item.split("=", 1) for item in environment)
        env = {k: _interpolate(v) for k, v in environment.items() if v is not None}
        env.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
        services[name] = Service(name, argv, env)
    return services


def _program(name: str) -> str:
    if name == "python":
        return sys.executable
    beside = Path(sys.executable).with_name(name)  # the virtualenv's own script
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def local_argv(service: Service, *, port: int, folder: Path) -> list[str]:
    """The service's command for this machine (see the module's docstring)."""
    argv, out, skip = service.argv, [_program(service.argv[0])], False
    for i, arg in enumerate(argv[1:], start=1):
        if skip:
            skip = False
            continue
        if service.kind == "web" and (arg in ("-b", "--bind") or arg.startswith("--bind=")):
            skip = "=" not in arg and i + 1 < len(argv)
            continue
        out.append(arg.replace("/tmp/", f"{folder}/"))
    if service.kind == "web":
        out.append(f"--bind={LOOPBACK}:{port}")
    named = any(a in ("-n", "--hostname") or a.startswith("--hostname=") for a in out)
    if service.kind == "worker" and not named:
        out.append(f"--hostname={service.name}@%h")
    return out


def local_env(service: Service, servers: dict[str, str], folder: Path) -> dict[str, str]:
    """The service's environment with this machine's servers put in for compose's: every
    variable compose sets that `servers` names takes the local value. HOME is the run's
    folder (gunicorn keeps its control socket there), as each container has its own."""
    env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
    env["HOME"] = str(folder)
    env.update(service.env)
    env.update({k: v for k, v in servers.items() if k in service.env})
    env["PYTHONUNBUFFERED"] = "1"
    return env


# --- the database and Redis ---------------------------------------------------------------
def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin(url: str):
    import psycopg

    return psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True)


def database_create(url: str, name: str) -> None:
    """A fresh database `name` on the server of `url`; a leftover of a run that was killed
    is dropped first (a database in use by another run refuses, and so does this)."""
    from psycopg import sql

    if urlsplit(url).path.lstrip("/") == name:
        raise RuntimeError(f"DATABASE_URL names {name} itself: the benchmark needs its own")
    database_drop(url, name, end_connections=False)
    with _admin(url) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def database_drop(url: str, name: str, end_connections: bool = True) -> None:
    """Drop database `name`, ending this role's own connections to it first unless told not
    to (a worker killed mid-run can leave one). Not WITH (FORCE): that refuses a role
    without pg_signal_backend whenever an autovacuum worker is in the database; a plain
    DROP cancels autovacuum itself and waits 5 s for the rest; one retry covers a connection
    still closing."""
    import time

    from psycopg import errors, sql

    if urlsplit(url).path.lstrip("/") == name:  # never the developer's own
        raise RuntimeError(f"DATABASE_URL names {name} itself: not dropping it")
    drop = sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name))
    with _admin(url) as conn:
        for attempt in range(2):
            if end_connections:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = %s AND usename = current_user AND pid <> pg_backend_pid()",
                    [name],
                )
            try:
                conn.execute(drop)
                return
            except errors.ObjectInUse:
                if attempt == 1:
                    raise
                time.sleep(0.25)


def database_backends(url: str, name: str) -> set[int]:
    """The server processes connected to database `name` (for their CPU time)."""
    with _admin(url) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [name])
        return {pid for (pid,) in rows}


CLAIM = "witchhunt-load-claim"


def redis_claim(url: str) -> str:
    """The URL of an empty Redis database, claimed for this run (the cache and the broker
    must meet no other process's keys or queues); the URL's own database is never used."""
    import redis

    own = int(urlsplit(url).path.lstrip("/") or 0)
    for db in range(15, 0, -1):
        if db == own:
            continue
        claimed = f"{urlsplit(url)._replace(path=f'/{db}').geturl()}"
        client = redis.Redis.from_url(claimed)
        if client.dbsize() == 0 and client.set(CLAIM, os.getpid(), nx=True):
            return claimed
    raise RuntimeError("no empty Redis database among 1-15 to run the benchmark in")


def redis_release(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def redis_values(url: str, part: str) -> tuple[int, int, int, int]:
    """(how many, bytes in all, the largest, the longest time to live in seconds) of the
    string values whose key holds `part`."""
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"*{part}*", _type="string"))
    sizes = [client.strlen(k) for k in keys]
    ttl = max((client.ttl(k) for k in keys), default=0)
    return len(sizes), sum(sizes), max(sizes, default=0), ttl


def redis_cpu_seconds(url: str) -> float:
    """The Redis server's CPU time (the whole server: other users' work is in it too)."""
    import redis

    info = redis.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


# --- the mail server ------------------------------------------------------------------------
class MailSink:
    """Compose's Mailpit here: an SMTP server on loopback that accepts every message and
    counts them, in a thread of its own."""

    def __init__(self):
        self.messages = 0
        self.port = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self) -> int:
        self._thread.start()
        server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._session, LOOPBACK, 0), self._loop
        ).result(timeout=10)
        self.port = server.sockets[0].getsockname()[1]
        return self.port

    def stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)

    async def _session(self, reader, writer):
        writer.write(b"220 localhost ESMTP\r\n")
        in_data = False
        while line := await reader.readline():
            if in_data:
                if line.rstrip(b"\r\n") == b".":
                    in_data = False
                    self.messages += 1
                    writer.write(b"250 OK\r\n")
            elif line[:4].upper() == b"DATA":
                in_data = True
                writer.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
            elif line[:4].upper() == b"QUIT":
                writer.write(b"221 Bye\r\n")
                break
            else:  # EHLO, HELO, MAIL, RCPT, RSET, NOOP
                writer.write(b"250 OK\r\n")
            await writer.drain()
        writer.close()


# --- processes -----------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def _tail(path: Path, lines=30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class Processes:
    """The processes this run started, each in a process group of its own (so a stop
    reaches its workers too), with its output in the run's folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.running: list[tuple[str, subprocess.Popen]] = []
        self.started: set[int] = set()  # every process group, for the tests to look for

    def log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def start(self, name: str, argv: list[str], env: dict) -> subprocess.Popen:
        with open(self.log(name), "wb") as out:
            process = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.running.append((name, process))
        self.started.add(process.pid)
        return process

    def once(self, name: str, argv: list[str], env: dict, timeout=600) -> str:
        """Run a one-off command to its end; its output, or RuntimeError with its tail."""
        result = subprocess.run(
            argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
        self.log(name).write_text(result.stdout + result.stderr)
        if result.returncode != 0:
            raise RuntimeError(f"{name} failed ({result.returncode}):\n{_tail(self.log(name))}")
        return result.stdout

    def check(self) -> None:
        for name, process in self.running:
            if process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited ({process.returncode}):\n{_tail(self.log(name))}"
                )

    def groups(self) -> set[int]:
        return {process.pid for _, process in self.running if process.poll() is None}

    def stop(self, timeout=20) -> None:
        """SIGTERM to every group (gunicorn and Celery shut down warm), SIGKILL to what is
        left after `timeout` seconds."""
        for _, process in self.running:
            _signal_group(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for _, process in self.running:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process.pid, signal.SIGKILL)  # its children, if any outlived it
            process.wait()
        self.running = []


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        pass


# --- waiting for the stack ------------------------------------------------------------------
def wait_web(port: int, host: str, processes: Processes, timeout=90) -> None:
    """Until gunicorn answers the home page as the proxy would ask for it."""
    import httpx

    headers = {"Host": host, "X-Forwarded-Proto": "https"}
    deadline = time.monotonic() + timeout
    while True:
        processes.check()
        try:
            if (
                httpx.get(
                    f"http://{LOOPBACK}:{port}/", headers=headers, trust_env=False, timeout=10
                ).status_code
                == 200
            ):
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn did not answer in {timeout} s")
        time.sleep(0.3)


def _celery(redis_url: str):
    from celery import Celery

    return Celery("load-control", broker=redis_url, set_as_current=False)


def wait_workers(redis_url: str, n: int, processes: Processes, timeout=90) -> None:
    """Until n Celery workers answer a ping on the broker (compose's healthcheck)."""
    app = _celery(redis_url)
    deadline = time.monotonic() + timeout
    while len(app.control.ping(timeout=1.0) or []) < n:
        processes.check()
        if time.monotonic() > deadline:
            raise RuntimeError(f"{n} Celery workers did not answer in {timeout} s")


def wait_quiet(redis_url: str, processes: Processes, timeout=180) -> None:
    """Until the broker's queues are empty and no worker has a task in hand, so that the
    work a stretch of the run caused does not spill into the next."""
    import redis

    client, app = redis.Redis.from_url(redis_url), _celery(redis_url)
    deadline = time.monotonic() + timeout
    while True:
        processes.check()
        queued = sum(client.llen(k) for k in client.scan_iter(_type="list"))
        if not queued and not client.hlen("unacked"):
            active = app.control.inspect(timeout=1.0).active() or {}
            if not any(active.values()):
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the workers were still busy after {timeout} s")
        time.sleep(0.2)


# --- CPU time -------------------------------------------------------------------------------
_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()  # the name may hold spaces and brackets


def cpu_by_pid(pids: set[int] = frozenset(), groups: set[int] = frozenset()) -> dict[int, float]:
    """CPU seconds (user + system) of each process in `pids` or in a process group of
    `groups`, from /proc."""
    if groups:
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                fields = _stat(int(entry.name))
                if fields and int(fields[2]) in groups:
                    pids = pids | {int(entry.name)}
    out = {}
    for pid in pids:
        fields = _stat(pid)
        if fields:
            out[pid] = (int(fields[11]) + int(fields[12])) / _TICK
    return out


def cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two cpu_by_pid samples (a process that began between them
    counts whole; one that ended between them is lost)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def new_secret() -> str:
    return secrets.token_urlsafe(50)
