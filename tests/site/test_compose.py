"""docker-compose.yml cannot be started here (no Docker engine), so its invariants are
checked on the file itself."""

import ast
import importlib
import ipaddress
import os
import re
import secrets
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from django.conf import settings

from tests.site.compose_stack import service_environment

COMPOSE = yaml.safe_load((Path(settings.BASE_DIR) / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WORKERS = ("clock-worker", "email-worker", "lab-worker", "webhooks-worker")
APP_SERVICES = ("web", *WORKERS, "beat", "migrate")
ONE_OFF = {"migrate"}


def _command(service: dict) -> list[str]:
    command = service.get("command", [])
    return command.split() if isinstance(command, str) else command


def test_the_expected_services_exist():
    assert set(SERVICES) == {
        "proxy", "web", *WORKERS, "beat", "migrate", "postgres", "redis", "mailpit"
    }  # fmt: skip


def test_exactly_one_beat_and_no_embedded_beat_anywhere():
    beats = [name for name, service in SERVICES.items() if "beat" in _command(service)]
    assert beats == ["beat"]
    assert SERVICES["beat"].get("deploy", {}).get("replicas", 1) == 1
    for name, service in SERVICES.items():
        command = _command(service)
        assert "-B" not in command and "--beat" not in command, name


def test_web_and_the_workers_can_scale():
    for name in ("web", *WORKERS):
        assert "container_name" not in SERVICES[name], name
        assert "replicas" not in SERVICES[name].get("deploy", {}), name
        assert "ports" not in SERVICES[name], name
    # No host port to clash over: the proxy finds every replica by name (below).
    assert "ports" not in SERVICES["web"]


def test_every_long_running_service_has_a_healthcheck():
    for name, service in SERVICES.items():
        if name in ONE_OFF:
            continue
        assert service.get("healthcheck", {}).get("test"), name


def test_migrations_run_once_before_the_app_starts():
    assert SERVICES["migrate"]["restart"] == "no"
    assert _command(SERVICES["migrate"])[-2:] == ["migrate", "--noinput"]
    for name in ("web", *WORKERS, "beat"):
        depends_on = SERVICES[name]["depends_on"]
        assert depends_on["migrate"] == {"condition": "service_completed_successfully"}, name
        for server in ("postgres", "redis"):
            assert depends_on[server] == {"condition": "service_healthy"}, (name, server)
    assert SERVICES["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}


def test_redis_never_evicts_queued_tasks():
    command = _command(SERVICES["redis"])
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction"


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_run_production_settings_against_the_compose_servers(name):
    environment = SERVICES[name]["environment"]
    assert environment["DJANGO_SETTINGS_MODULE"] == "witchhunt.settings.production"
    assert "@postgres:5432/" in environment["DATABASE_URL"]
    assert environment["REDIS_URL"].startswith("redis://redis:")
    assert environment["EMAIL_HOST"] == "mailpit"


def _queues(command: list[str]) -> set[str]:
    return set(command[command.index("-Q") + 1].split(",")) if "-Q" in command else set()


def test_each_queue_has_a_worker_of_its_own():
    """The clock's sweeps, the emails and the lab's estimates never wait behind each other
    (settings: CELERY_TASK_ROUTES): every routed queue is taken by exactly one worker service, and
    each worker takes one queue; no worker takes Celery's default queue, so every task
    must be routed (tests/games/test_queues.py)."""
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed == {"clock", "email", "lab", "webhooks"}
    workers = {n: s for n, s in SERVICES.items() if _command(s)[3:4] == ["worker"]}
    assert set(workers) == set(WORKERS)
    for name, service in workers.items():
        assert _command(service)[:4] == ["celery", "-A", "witchhunt", "worker"], name
    assert _queues(_command(SERVICES["clock-worker"])) == {"clock"}
    assert _queues(_command(SERVICES["email-worker"])) == {"email"}
    assert _queues(_command(SERVICES["lab-worker"])) == {"lab"}
    assert _queues(_command(SERVICES["webhooks-worker"])) == {"webhooks"}


def test_web_serves_with_gunicorn():
    assert _command(SERVICES["web"])[0] == "gunicorn"


def test_dockerfile_runs_as_a_non_root_user_and_collects_static_files():
    dockerfile = (Path(settings.BASE_DIR) / "Dockerfile").read_text()
    assert dockerfile.startswith("# ") and "FROM python:3.11-slim" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    user_lines = [line for line in dockerfile.splitlines() if line.startswith("USER ")]
    assert user_lines and user_lines[-1] not in ("USER root", "USER 0")


# --- the TLS proxy in front of gunicorn -------------------------------------------------------
CADDYFILE_PATH = "witchhunt/deploy/Caddyfile"
CADDYFILE = (Path(settings.BASE_DIR) / CADDYFILE_PATH).read_text()


def _caddy_directives() -> list[list[str]]:
    """The Caddyfile's lines as words, comments and blank lines dropped."""
    lines = (line.split("#", 1)[0].split() for line in CADDYFILE.splitlines())
    return [words for words in lines if words]


def _networks(service: dict) -> dict:
    networks = service.get("networks", {})
    return {name: {} for name in networks} if isinstance(networks, list) else networks


def test_only_the_proxy_and_the_mail_viewer_publish_ports():
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy", "mailpit"}
    assert {str(port).split(":")[-1].split("/")[0] for port in SERVICES["proxy"]["ports"]} == {
        "80", "443"
    }  # fmt: skip
    # Mailpit shows every email, password-reset links included: this machine only.
    for port in SERVICES["mailpit"]["ports"]:
        assert str(port).startswith("127.0.0.1:"), port


def test_the_proxy_is_caddy_with_the_repository_caddyfile():
    proxy = SERVICES["proxy"]
    assert proxy["image"].split(":")[0] == "caddy" and proxy["image"].split(":")[1].startswith("2")
    mounts = [str(volume) for volume in proxy["volumes"]]
    assert f"./{CADDYFILE_PATH}:/etc/caddy/Caddyfile:ro" in mounts
    assert any(mount.endswith(":/data") for mount in mounts), "certificates must persist"
    assert proxy["depends_on"]["web"] == {"condition": "service_healthy"}
    assert proxy["healthcheck"]["test"]


def test_gunicorn_is_reachable_from_the_proxy_alone():
    web, proxy = SERVICES["web"], SERVICES["proxy"]
    edge = "edge"
    assert set(_networks(proxy)) == {edge}, "the proxy reaches nothing but the web servers"
    assert edge in _networks(web)
    others = [name for name, service in SERVICES.items() if edge in _networks(service)]
    assert sorted(others) == ["proxy", "web"]
    # The backing servers are on the other network only.
    assert "default" in _networks(web)
    for name in ("postgres", "redis"):
        assert edge not in _networks(SERVICES[name]), name


def test_the_web_servers_trust_forwarded_headers_from_the_proxy_alone():
    proxy_address = _networks(SERVICES["proxy"])["edge"]["ipv4_address"]
    subnet = COMPOSE["networks"]["edge"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_address) in ipaddress.ip_network(subnet)
    assert SERVICES["web"]["environment"]["TRUSTED_PROXIES"] == proxy_address


def test_the_caddyfile_proxies_to_every_web_replica_and_sets_the_forwarded_headers():
    directives = _caddy_directives()
    assert ["reverse_proxy", "{"] in directives
    assert ["dynamic", "a", "{$WEB_HOST:web}", "{$WEB_PORT:8000}"] in directives
    # Caddy sets X-Forwarded-For and X-Forwarded-Proto itself and ignores what a client sent,
    # as long as no trusted_proxies is configured: nothing may configure one.
    assert not any(words[0] == "trusted_proxies" for words in directives)
    assert not any("X-Forwarded" in " ".join(words) for words in directives)
    assert ["{$SITE_ADDRESS:localhost}", "{"] in directives


def test_the_app_settings_match_the_proxy():
    environment = SERVICES["web"]["environment"]
    # Behind the proxy every request is HTTPS: production's own default (redirect) holds.
    assert "SECURE_SSL_REDIRECT" not in environment
    assert environment["SITE_URL"].startswith("${SITE_URL:-https://")
    assert SERVICES["proxy"]["environment"]["SITE_ADDRESS"].startswith("${SITE_ADDRESS:-")


# --- every setting, command and healthcheck is one the code reads ------------------------------
ROOT = Path(settings.BASE_DIR)
_ENV_READ = re.compile(
    r"""(?:env\.get_\w+|os\.environ\.get|os\.environ\.setdefault|os\.getenv)\(\s*"(\w+)"|"""
    r"""os\.environ\[\s*"(\w+)"\s*\]"""
)


def _code_reads() -> set[str]:
    """The environment variables the site's code reads (settings, wsgi, the Celery app)."""
    names = set()
    for path in (ROOT / "witchhunt").rglob("*.py"):
        for match in _ENV_READ.finditer(path.read_text()):
            names.add(match.group(1) or match.group(2))
    return names


def _caddyfile_reads() -> set[str]:
    return set(re.findall(r"\{\$(\w+)", CADDYFILE))


def _required_by_production() -> set[str]:
    """The variables the production settings read with no default: a container without one
    of them refuses to start."""
    required = set()
    for module in ("base.py", "production.py"):
        tree = ast.parse((ROOT / "witchhunt" / "settings" / module).read_text())
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                continue
            if not (isinstance(call.func.value, ast.Name) and call.func.value.id == "env"):
                continue
            name = call.args[0].value
            keywords = {k.arg: k.value for k in call.keywords}
            if call.func.attr in ("get_str", "get_list") and len(call.args) == 1 and not keywords:
                required.add(name)
            sqlite = keywords.get("default_sqlite")
            if call.func.attr == "get_database" and isinstance(sqlite, ast.Constant):
                required.add(name)  # default_sqlite=None: no file to fall back to
    return required


def test_the_scan_finds_the_variables_the_code_reads():
    reads = _code_reads()
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "TRUSTED_PROXIES", "LAB_WORKERS"} <= reads
    assert "DJANGO_SETTINGS_MODULE" in reads  # wsgi.py and celery.py
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "EMAIL_HOST", "SITE_URL"} <= (
        _required_by_production()
    )
    assert "SITE_ADDRESS" in _caddyfile_reads()


@pytest.mark.parametrize("name", APP_SERVICES)
def test_every_variable_an_app_service_sets_is_one_the_code_reads(name):
    unread = set(SERVICES[name]["environment"]) - _code_reads()
    assert not unread, f"{name} sets variables no code reads: {sorted(unread)}"


@pytest.mark.parametrize("name", APP_SERVICES)
def test_every_variable_production_requires_is_set(name):
    environment = SERVICES[name]["environment"]
    missing = _required_by_production() - set(environment)
    assert not missing, f"{name} lacks {sorted(missing)}"
    # REDIS_URL has no default either: production refuses to start without one.
    assert environment["REDIS_URL"]


@pytest.mark.slow
@pytest.mark.parametrize("name", APP_SERVICES)
def test_production_settings_load_with_each_app_services_environment(name):
    """What the service's container sees, given only the one value compose insists on
    (SECRET_KEY): the production settings accept it, every value parsed."""
    environment = service_environment(name, {"SECRET_KEY": secrets.token_urlsafe(50)})
    result = subprocess.run(
        [sys.executable, "-c", "import witchhunt.settings.production"],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_every_variable_the_proxy_sets_is_one_the_caddyfile_reads():
    assert set(SERVICES["proxy"]["environment"]) <= _caddyfile_reads()


def test_the_database_servers_variables_match_the_apps_database_url():
    """The postgres image reads its own three variables; they must describe the database
    the app services' DATABASE_URL names, and its healthcheck ask for that database."""
    server = SERVICES["postgres"]["environment"]
    assert set(server) == {"POSTGRES_DB", "POSTGRES_USER", "POSTGRES_PASSWORD"}
    url = SERVICES["web"]["environment"]["DATABASE_URL"]
    assert url == (
        f"postgres://{server['POSTGRES_USER']}:{server['POSTGRES_PASSWORD']}"
        f"@postgres:5432/{server['POSTGRES_DB']}"
    )
    check = SERVICES["postgres"]["healthcheck"]["test"][1]
    assert f"-U {server['POSTGRES_USER']} -d {server['POSTGRES_DB']}" in check


def _dependencies() -> set[str]:
    """The distributions the image installs (the Dockerfile reads project.dependencies)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = (re.split(r"[\[<>=!~ ]", spec, maxsplit=1)[0] for spec in project["dependencies"])
    return {name.lower() for name in names}


def test_every_app_commands_program_is_installed_in_the_image():
    programs = {_command(SERVICES[name])[0] for name in APP_SERVICES}
    assert programs == {"python", "gunicorn", "celery"}
    assert {"gunicorn", "celery"} <= _dependencies()
    assert (ROOT / _command(SERVICES["migrate"])[1]).name == "manage.py"
    assert (ROOT / "manage.py").exists()


def test_gunicorns_application_is_importable():
    module, _, attribute = _command(SERVICES["web"])[1].partition(":")
    assert getattr(importlib.import_module(module), attribute)
    bind = next(word for word in _command(SERVICES["web"]) if word.startswith("--bind="))
    assert bind == "--bind=0.0.0.0:8000", "the proxy (the Caddyfile) reaches web on port 8000"


def test_celerys_app_is_the_one_the_commands_name():
    from celery import Celery

    for name in (*WORKERS, "beat"):
        assert _command(SERVICES[name])[1:3] == ["-A", "witchhunt"], name
    assert isinstance(importlib.import_module("witchhunt.celery").app, Celery)
    assert importlib.import_module("witchhunt").celery_app.main == "witchhunt"


def test_the_migrate_command_exists():
    from django.core.management import get_commands

    assert get_commands()[_command(SERVICES["migrate"])[2]] == "django.core"


def _healthcheck(name: str) -> str:
    return " ".join(SERVICES[name]["healthcheck"]["test"][1:])


def test_the_web_healthcheck_reaches_gunicorns_port_or_a_page_the_site_serves():
    """A TCP connect to gunicorn's port, or an HTTP probe of a URL on that port whose path
    the site routes or the health middleware answers (either form works;
    tests/site/test_production_shape.py runs it)."""
    from django.urls import Resolver404, resolve

    from witchhunt import health

    check = _healthcheck("web")
    urls = re.findall(r"https?://[^\s'\"]+", check)
    if not urls:
        assert "create_connection(('127.0.0.1', 8000)" in check, check
    for url in urls:
        parts = urlsplit(url)
        assert (parts.hostname, parts.port) in (("127.0.0.1", 8000), ("localhost", 8000)), url
        if parts.path in (health.READY, health.FULL):
            continue
        try:
            resolve(parts.path or "/")
        except Resolver404:
            pytest.fail(f"the web healthcheck asks for {parts.path}, which the site does not serve")


def test_the_worker_healthchecks_ping_the_workers_own_node():
    """`inspect ping -d celery@$HOSTNAME` answers only if the worker kept Celery's default
    node name (celery@ the container's host name)."""
    for name in WORKERS:
        assert "celery -A witchhunt inspect ping" in _healthcheck(name), name
        assert "-d celery@$$HOSTNAME" in _healthcheck(name), name
        command = _command(SERVICES[name])
        assert not any(w in ("-n", "--hostname") or w.startswith("--hostname=") for w in command)


def test_the_beat_healthcheck_reads_the_pidfile_beat_writes():
    pidfile = next(w for w in _command(SERVICES["beat"]) if w.startswith("--pidfile="))
    assert f"kill -0 $$(cat {pidfile.partition('=')[2]})" in _healthcheck("beat")


def test_the_proxy_healthcheck_asks_caddys_admin_address():
    admin = next(words for words in _caddy_directives() if words[0] == "admin")
    assert admin == ["admin", "{$CADDY_ADMIN:localhost:2019}"]
    assert "http://127.0.0.1:2019/config/" in _healthcheck("proxy")
    assert "CADDY_ADMIN" not in SERVICES["proxy"]["environment"]


def test_the_caddyfile_placeholders_default_to_production():
    """Each placeholder the loopback test moves defaults to what compose needs."""
    assert ["http_port", "{$HTTP_PORT:80}"] in _caddy_directives()
    assert ["skip_install_trust"] in _caddy_directives()
    for name in ("HTTP_PORT", "WEB_HOST", "WEB_PORT", "CADDY_ADMIN"):
        assert name not in SERVICES["proxy"]["environment"], name


# --- watching it (docs/operations.md, "Watch it") ---------------------------------------------
def _probe_path(test: list[str]) -> str:
    """The address web's healthcheck asks, read from its command."""
    (url,) = re.findall(r"http://127\.0\.0\.1:8000(/[^'\"]*)", " ".join(test))
    return url


@pytest.mark.django_db
def test_the_web_healthcheck_asks_the_ready_endpoint_and_gets_its_answer(client, settings):
    """The probe runs inside the container: plain HTTP to 127.0.0.1, a Host the operator
    never allows, the HTTPS redirect on; it still gets the readiness answer (200), which
    ignores the clock, while every other page refuses that host."""
    test = SERVICES["web"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"] and "urlopen(" in test[3]
    path = _probe_path(test)
    assert path == "/health/ready/"
    settings.ALLOWED_HOSTS = ["witchhunt.example"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get(path, HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200 and response.json() == {"status": "ok", "database": "ok"}
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400


def test_the_app_services_pass_the_watch_variables_the_settings_read():
    environment = SERVICES["web"]["environment"]
    for name in ("ADMINS", "LOG_FORMAT", "SENTRY_DSN"):
        assert name in environment, name
    assert environment["LOG_FORMAT"].startswith("${LOG_FORMAT:-")


def test_the_image_installs_the_sentry_extra():
    dockerfile = (Path(settings.BASE_DIR) / "Dockerfile").read_text()
    assert "['optional-dependencies']['sentry']" in dockerfile
