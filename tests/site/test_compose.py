"""docker-compose.yml cannot be started here (no Docker engine), so its invariants are
checked on the file itself."""

import ipaddress
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

COMPOSE = yaml.safe_load((Path(settings.BASE_DIR) / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WORKERS = ("clock-worker", "email-worker", "lab-worker")
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
    assert routed == {"clock", "email", "lab"}
    workers = {n: s for n, s in SERVICES.items() if _command(s)[3:4] == ["worker"]}
    assert set(workers) == set(WORKERS)
    for name, service in workers.items():
        assert _command(service)[:4] == ["celery", "-A", "witchhunt", "worker"], name
    assert _queues(_command(SERVICES["clock-worker"])) == {"clock"}
    assert _queues(_command(SERVICES["email-worker"])) == {"email"}
    assert _queues(_command(SERVICES["lab-worker"])) == {"lab"}


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
    assert ["dynamic", "a", "web", "8000"] in directives
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
