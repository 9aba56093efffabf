"""docker-compose.yml read as the processes it starts, for a run on loopback without Docker.

Each service's command and environment come from the file itself (PyYAML, with compose's
`${VAR:-default}` interpolation from an operator's environment); only what names another
container changes: hosts and ports (postgres, redis, mailpit, gunicorn's bind, the proxy's
address), the database's name, and the /tmp files of beat. Anything else in the file
reaches the processes as written, so a change there is a change here.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
CADDYFILE = ROOT / "witchhunt" / "deploy" / "Caddyfile"
# The programs of the image (Dockerfile: pip-installed into the image's Python).
BIN = Path(sys.executable).parent
PROGRAMS = {
    "python": sys.executable,
    "gunicorn": str(BIN / "gunicorn"),
    "celery": str(BIN / "celery"),
}

_VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}|\$\$")


def interpolate(value: str, operator_env: dict[str, str]) -> str:
    """Compose's variable syntax: ${X}, ${X:-default}, ${X-default}, ${X:?error}, $$."""

    def one(match: re.Match) -> str:
        if match.group(0) == "$$":
            return "$"
        name, kind, arg = match.groups()
        value = operator_env.get(name)
        if kind in (":-", ":?"):
            value = value or None
        if value is None and kind in ("-", ":-"):
            return arg
        if value is None and kind in ("?", ":?"):
            raise ValueError(f"{name}: {arg}")
        return value or ""

    return _VARIABLE.sub(one, value)


def service_environment(name: str, operator_env: dict[str, str]) -> dict[str, str]:
    environment = SERVICES[name].get("environment", {})
    return {key: interpolate(str(value), operator_env) for key, value in environment.items()}


def service_command(name: str, operator_env: dict[str, str]) -> list[str]:
    command = SERVICES[name]["command"]
    return [interpolate(str(word), operator_env) for word in command]


@dataclass
class Loopback:
    """Where each container of the compose file is on this machine."""

    database_url: str  # the fresh database
    redis_url: str
    smtp_port: int
    web_port: int
    tmp: Path
    proxy_address: str = "127.0.0.1"  # the address Caddy connects to gunicorn from

    def environment(self, environment: dict[str, str]) -> dict[str, str]:
        """A service's environment with the containers' names replaced by loopback's."""
        out = dict(environment)
        for key, container in (("DATABASE_URL", "postgres"), ("REDIS_URL", "redis")):
            if key in out:
                assert urlsplit(out[key]).hostname == container, (key, out[key])
        if "DATABASE_URL" in out:
            out["DATABASE_URL"] = self.database_url
        if "REDIS_URL" in out:
            out["REDIS_URL"] = self.redis_url
        if "EMAIL_HOST" in out:
            assert out["EMAIL_HOST"] == "mailpit"
            out["EMAIL_HOST"], out["EMAIL_PORT"] = "127.0.0.1", str(self.smtp_port)
        if "TRUSTED_PROXIES" in out:
            proxy = SERVICES["proxy"]["networks"]["edge"]["ipv4_address"]
            assert out["TRUSTED_PROXIES"] == proxy
            out["TRUSTED_PROXIES"] = self.proxy_address
        return out

    def word(self, word: str) -> str:
        """A command's word (or a healthcheck's) with the container's own addresses and
        files replaced."""
        for host in ("0.0.0.0", "127.0.0.1", "localhost"):
            word = word.replace(f"{host}:8000", f"127.0.0.1:{self.web_port}")
            word = word.replace(f"('{host}', 8000)", f"('127.0.0.1', {self.web_port})")
        return word.replace("/tmp/", f"{self.tmp}/")

    def command(self, command: list[str]) -> list[str]:
        words = [self.word(word) for word in command]
        return [PROGRAMS.get(words[0], words[0]), *words[1:]]


@dataclass
class Processes:
    """Processes started in sessions of their own, each logging to a file; stop() ends
    each one's process group (a Celery worker's children with it)."""

    logs: Path
    running: dict[str, subprocess.Popen] = field(default_factory=dict)

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = (self.logs / f"{name}.log").open("wb")
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self.running[name] = process
        return process

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def alive(self, name: str) -> bool:
        return self.running[name].poll() is None

    def stop(self) -> None:
        for process in self.running.values():
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in self.running.values():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process, signal.SIGKILL)
            process.wait(10)


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        pass


def wait_for(predicate, timeout: float, every: float = 0.25) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return bool(predicate())


def base_environment(home: Path) -> dict[str, str]:
    """What a container has before compose's environment: a PATH, a HOME, this checkout's
    code on the import path (the image's /app), nothing of the test run's own settings."""
    return {
        "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "LANG": "C.UTF-8",
        "HOSTNAME": socket.gethostname(),
    }
