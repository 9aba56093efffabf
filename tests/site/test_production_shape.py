"""The production shape, tried: docker-compose.yml's services as processes on loopback.

Docker cannot run here, so the compose file is read (tests/site/compose_stack.py) and its
services started as it starts them: its Redis command, the migrate one-off, gunicorn, the
clock, email and lab workers and one beat, with their commands and environments as
written, the production settings included; Caddy from Debian's package in front, with the
repository's Caddyfile and its own certificate authority. Only hosts and ports change: a
fresh PostgreSQL database, a Redis of its own, an SMTP server in this process for Mailpit.

Then what a visitor and an operator see: HTTPS with a chain to Caddy's authority, HSTS,
HTTP sent to HTTPS, the visitor's address (not the proxy's) in allauth's rate limits,
hashed static files with long cache headers, a deadline fired by beat and the clock
worker, emails reaching the mail server, and each compose healthcheck passing.

Needs caddy, redis-server and PostgreSQL (DATABASE_URL): without them it skips, or fails
where it must run (CI sets CI=true or WITCHHUNT_REQUIRE_BROWSER=1).
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import shutil
import ssl
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest
import redis

from tests.games.smtp_server import SmtpServer
from tests.site.compose_stack import (
    CADDYFILE,
    ROOT,
    SERVICES,
    Loopback,
    Processes,
    base_environment,
    service_command,
    service_environment,
    wait_for,
)
from tests.stack import free_port

pytestmark = pytest.mark.slow

REQUIRED = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get(
    "WITCHHUNT_REQUIRE_BROWSER", ""
) not in ("", "0")
CADDY = shutil.which("caddy")
REDIS_SERVER = shutil.which("redis-server")
DATABASE_URL = os.environ.get("DATABASE_URL", "")
APP_SERVICES = ("web", "clock-worker", "email-worker", "lab-worker", "webhooks-worker", "beat")
HSTS_SECONDS = "31536000"  # what docker-compose.yml's comment tells a public site to set
TOO_MANY = "Too many failed login attempts"


def _missing() -> str | None:
    if not CADDY:
        return "no caddy: install Debian's caddy package (.ci/run does)"
    if not REDIS_SERVER:
        return "no redis-server: install Debian's redis-server package"
    if urlsplit(DATABASE_URL).scheme not in ("postgres", "postgresql"):
        return "needs PostgreSQL: set DATABASE_URL=postgres://... (CI does)"
    return None


@dataclass
class Stack:
    https: str  # https://localhost:PORT
    http: str  # http://localhost:PORT
    root_ca: Path  # Caddy's own authority's root certificate
    database_url: str
    processes: Processes
    smtp: SmtpServer
    loopback: Loopback
    app_env: dict[str, dict[str, str]]
    proxy_env: dict[str, str]

    def client(self, address: str = "127.0.0.1", **kwargs) -> httpx.Client:
        """A visitor connecting from `address` (any of 127.0.0.0/8 is this machine), who
        trusts Caddy's authority and nothing else."""
        context = ssl.create_default_context(cafile=str(self.root_ca))
        transport = httpx.HTTPTransport(local_address=address, verify=context)
        return httpx.Client(transport=transport, timeout=30, **kwargs)

    def sql(self, query: str, *args):
        with psycopg.connect(self.database_url) as connection:
            return connection.execute(query, args).fetchall()


def _database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin(sql: str) -> None:
    with psycopg.connect(_database(DATABASE_URL, "postgres"), autocommit=True) as connection:
        connection.execute(sql)


def _run(name: str, command: list[str], env: dict[str, str], timeout: int = 300) -> None:
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, f"{name}: {result.stdout[-3000:]}{result.stderr[-3000:]}"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    missing = _missing()
    if missing and REQUIRED:
        pytest.fail(f"{missing}; CI requires the production-shape test to run", pytrace=False)
    if missing:
        pytest.skip(missing)

    tmp = tmp_path_factory.mktemp("stack")
    processes = Processes(logs=tmp)
    https_port, http_port, admin_port = free_port(), free_port(), free_port()
    smtp = SmtpServer().start()
    name = f"wh_stack_{uuid.uuid4().hex[:10]}"
    try:
        # Redis as compose runs it, on a port and in a folder of its own.
        redis_port = free_port()
        (tmp / "redis").mkdir()
        redis_command = [REDIS_SERVER, *SERVICES["redis"]["command"][1:]]
        processes.start(
            "redis",
            [*redis_command, "--port", str(redis_port), "--bind", "127.0.0.1",
             "--dir", str(tmp / "redis"), "--save", ""],
            {"PATH": os.environ["PATH"]},
        )  # fmt: skip
        client = redis.Redis(port=redis_port)
        assert wait_for(lambda: _pings(client), 30), processes.log("redis")

        _admin(f'CREATE DATABASE "{name}"')
        loopback = Loopback(
            database_url=_database(DATABASE_URL, name),
            redis_url=f"redis://127.0.0.1:{redis_port}/0",
            smtp_port=smtp.port,
            web_port=free_port(),
            tmp=tmp,
        )
        # What an operator puts in the compose project's .env.
        operator_env = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_HSTS_SECONDS": HSTS_SECONDS,
            "SITE_ADDRESS": f"localhost:{https_port}",
            "SITE_URL": f"https://localhost:{https_port}",
        }
        home = tmp / "home"
        home.mkdir()
        app_env = {
            service: {
                **base_environment(home),
                **loopback.environment(service_environment(service, operator_env)),
            }
            for service in ("migrate", *APP_SERVICES)
        }
        # The image's build step (Dockerfile), then the one-off before anything starts.
        _run("collectstatic", [*loopback.command(["python", "manage.py", "collectstatic",
             "--noinput"])], app_env["web"])  # fmt: skip
        _run("migrate", loopback.command(service_command("migrate", operator_env)),
             app_env["migrate"])  # fmt: skip
        for service in APP_SERVICES:
            command = loopback.command(service_command(service, operator_env))
            processes.start(service, command, app_env[service])

        # The proxy: the caddy image's own command on the mounted Caddyfile.
        volumes = SERVICES["proxy"]["volumes"]
        mount = next(v for v in volumes if v.endswith(":/etc/caddy/Caddyfile:ro"))
        assert (ROOT / mount.split(":")[0]).resolve() == CADDYFILE
        proxy_env = {
            "PATH": os.environ["PATH"],
            "HOME": str(tmp / "caddy"),
            "XDG_DATA_HOME": str(tmp / "caddy" / "data"),
            "XDG_CONFIG_HOME": str(tmp / "caddy" / "config"),
            **service_environment("proxy", operator_env),
            # The Caddyfile's placeholders whose defaults are production's.
            "HTTP_PORT": str(http_port),
            "CADDY_ADMIN": f"127.0.0.1:{admin_port}",
            "WEB_HOST": "127.0.0.1",
            "WEB_PORT": str(loopback.web_port),
        }
        processes.start(
            "proxy", [CADDY, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            proxy_env,
        )  # fmt: skip
        root_ca = tmp / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        stack = Stack(
            https=f"https://localhost:{https_port}",
            http=f"http://localhost:{http_port}",
            root_ca=root_ca,
            database_url=loopback.database_url,
            processes=processes,
            smtp=smtp,
            loopback=loopback,
            app_env=app_env,
            proxy_env=proxy_env,
        )
        _wait_until_ready(stack)
        yield stack
    finally:
        processes.stop()
        smtp.stop()
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def _wait_until_ready(stack: Stack) -> None:
    processes = stack.processes

    def up(service: str, ready) -> None:
        ok = wait_for(lambda: not processes.alive(service) or ready(), 180)
        assert ok and processes.alive(service), f"{service}:\n{processes.log(service)[-4000:]}"

    for worker in ("clock-worker", "email-worker", "lab-worker", "webhooks-worker"):
        up(worker, lambda worker=worker: " ready." in processes.log(worker))
    up("beat", lambda: "beat: Starting..." in processes.log("beat"))
    up("proxy", lambda: stack.root_ca.exists())

    def serves() -> bool:
        try:
            with stack.client() as client:
                return client.get(f"{stack.https}/").status_code == 200
        except httpx.HTTPError:
            return False

    up("web", serves)


# --- HTTPS, HSTS, HTTP to HTTPS ---------------------------------------------------------------
def test_https_answers_with_a_certificate_from_caddys_authority_and_sends_hsts(stack):
    with stack.client() as client:
        response = client.get(f"{stack.https}/")

    assert response.status_code == 200
    assert "Caddy" in response.headers["server"]  # it came through the proxy
    assert response.headers["strict-transport-security"] == (
        f"max-age={HSTS_SECONDS}; includeSubDomains"
    )
    # The chain is checked: a client that trusts only the system's authorities refuses it.
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(f"{stack.https}/", verify=ssl.create_default_context(), timeout=10)


def test_http_is_sent_to_https(stack):
    with stack.client() as client:
        response = client.get(f"{stack.http}/accounts/login/?next=/")

    assert response.status_code == 308
    assert response.headers["location"] == f"{stack.https}/accounts/login/?next=/"


# --- the visitor's address behind the proxy -------------------------------------------------
def _loopback_address() -> str:
    return f"127.{random.randint(1, 254)}.{random.randint(1, 254)}.{random.randint(2, 254)}"


def _fail_sign_in(client: httpx.Client, stack: Stack, n: int, forged: str) -> str:
    url = f"{stack.https}/accounts/login/"
    page = client.get(url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    response = client.post(
        url,
        data={"csrfmiddlewaretoken": token, "login": f"nobody{n}@example.com", "password": "x"},
        # What a visitor may send: Caddy replaces it with the address it sees.
        headers={"Referer": url, "X-Forwarded-For": forged},
    )
    assert response.status_code == 200, response.text[:500]
    return response.text


def test_failed_sign_ins_count_per_visitor_address_the_proxy_names(stack):
    """allauth's limit (10 failed sign-ins a minute per address) counts the address Caddy
    saw, which the site believes because it comes from TRUSTED_PROXIES: a visitor cannot
    escape it by forging X-Forwarded-For, and another visitor is not limited with them."""
    alice, bob = _loopback_address(), _loopback_address()
    with stack.client(alice) as client:
        for n in range(10):
            assert TOO_MANY not in _fail_sign_in(client, stack, n, forged=f"198.51.100.{n}")
        assert TOO_MANY in _fail_sign_in(client, stack, 10, forged="198.51.100.200")

    with stack.client(bob) as client:
        page = _fail_sign_in(client, stack, 11, forged=alice)
    assert TOO_MANY not in page
    assert "not correct" in page or "do not match" in page or "incorrect" in page.lower()


# --- static files --------------------------------------------------------------------------
def test_hashed_static_files_are_served_with_long_cache_headers(stack):
    manifest = json.loads((ROOT / "staticfiles" / "staticfiles.json").read_text())["paths"]
    stylesheet = next(hashed for name, hashed in manifest.items() if name.endswith(".css"))
    assert re.search(r"\.[0-9a-f]{12}\.css$", stylesheet), stylesheet

    with stack.client() as client:
        page = client.get(f"{stack.https}/")
        response = client.get(f"{stack.https}/static/{stylesheet}")

    assert f"/static/{manifest['css/site.css']}" in page.text
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    cache = response.headers["cache-control"]
    assert "immutable" in cache and "max-age=315360000" in cache, cache


# --- the logs ------------------------------------------------------------------------------------
def test_a_secret_in_an_address_reaches_no_log_line(stack):
    """A calendar feed's token, an unsubscribe link's and a password-reset key, asked for
    through the proxy (the first two refused: the app logs their paths), and one named as
    the page a request came from: gunicorn's access log and the app's lines redact each
    (witchhunt/redact.py), and still say what was asked."""
    secrets_ = [secrets.token_urlsafe(24) for _ in range(4)]
    with stack.client() as client:
        feed = client.get(f"{stack.https}/calendar/{secrets_[0]}.ics")
        unsubscribe = client.get(f"{stack.https}/email/unsubscribe/{secrets_[1]}/")
        reset = client.get(f"{stack.https}/accounts/password/reset/key/1-{secrets_[2]}/")
        referred = client.get(
            f"{stack.https}/",
            headers={"Referer": f"{stack.https}/email/unsubscribe/{secrets_[3]}/"},
        )
    assert (feed.status_code, unsubscribe.status_code) == (404, 400)
    assert reset.status_code == 200 and referred.status_code == 200

    def logged() -> bool:
        return "GET /email/unsubscribe/[redacted]/ HTTP" in stack.processes.log("web")

    assert wait_for(logged, 10), stack.processes.log("web")[-3000:]
    log = stack.processes.log("web")
    assert not [s for s in secrets_ if s in log], log[-3000:]
    assert "GET /calendar/[redacted].ics HTTP" in log  # the access log's request line
    assert "Not Found: /calendar/[redacted].ics" in log  # Django's own line
    assert "Bad Request: /email/unsubscribe/[redacted]/" in log
    assert "GET /accounts/password/reset/key/[redacted]/ HTTP" in log
    assert f'"{stack.https}/email/unsubscribe/[redacted]/"' in log  # the Referer


# --- the clock and the mail --------------------------------------------------------------------
SEED = """
import django
django.setup()
from datetime import timedelta
from django.utils import timezone
from games.models import Game
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game, users_for
game = make_game(UserFactory(player_name="Mod"), users_for(CAST))
Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
print(game.pk)
"""


def test_a_passed_deadline_is_fired_by_beat_and_the_clock_worker_and_emails_go_out(stack):
    """Nothing but the stack's own processes acts: beat sends the sweep, the clock worker
    ends the day, the email worker tells the players through the mail server."""
    env = stack.app_env["web"]
    result = subprocess.run(
        [stack.loopback.command(["python"])[0], "-c", SEED],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    game_id = int(result.stdout.strip().splitlines()[-1])

    def phase() -> str:
        return stack.sql("SELECT phase FROM games_game WHERE id = %s", game_id)[0][0]

    assert wait_for(lambda: phase() != "day 1", 90), stack.processes.log("clock-worker")[-3000:]
    assert phase() == "night 1"
    assert wait_for(lambda: any("Night 1 falls" in s for s in stack.smtp.to("ann@example.com")), 60)


def test_a_sign_up_email_reaches_the_mail_server(stack):
    address = f"new{uuid.uuid4().hex[:8]}@example.com"
    url = f"{stack.https}/accounts/signup/"
    with stack.client(_loopback_address()) as client:
        page = client.get(url)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        response = client.post(
            url,
            data={
                "csrfmiddlewaretoken": token,
                "email": address,
                "player_name": f"New{uuid.uuid4().hex[:6]}",
                "password1": "a-long-and-unusual-passphrase",
                "password2": "a-long-and-unusual-passphrase",
                "time_zone": "UTC",
            },
            headers={"Referer": url},
        )
    assert response.status_code == 302, response.text[:2000]
    assert wait_for(lambda: stack.smtp.to(address), 60), stack.processes.log("email-worker")[-3000:]


# --- the compose healthchecks -------------------------------------------------------------------
@pytest.mark.parametrize("service", [*APP_SERVICES, "proxy"])
def test_each_compose_healthcheck_passes_against_the_running_service(stack, service):
    test = SERVICES[service]["healthcheck"]["test"]
    kind, *words = test
    words = [stack.loopback.word(word).replace("$$", "$") for word in words]
    if service == "proxy":
        words = [w.replace("127.0.0.1:2019", stack.proxy_env["CADDY_ADMIN"]) for w in words]
        env = stack.proxy_env
    else:
        env = stack.app_env[service]
    command = ["sh", "-c", words[0]] if kind == "CMD-SHELL" else words
    if command[0] == "python":
        command = stack.loopback.command(command)
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, (command, result.stdout, result.stderr)
