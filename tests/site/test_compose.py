"""docker-compose.yml cannot be started here (no Docker engine), so its invariants are
checked on the file itself."""

from pathlib import Path

import pytest
import yaml
from django.conf import settings

COMPOSE = yaml.safe_load((Path(settings.BASE_DIR) / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("web", "worker", "beat", "migrate")
ONE_OFF = {"migrate"}


def _command(service: dict) -> list[str]:
    command = service.get("command", [])
    return command.split() if isinstance(command, str) else command


def test_the_expected_services_exist():
    assert set(SERVICES) == {"web", "worker", "beat", "migrate", "postgres", "redis", "mailpit"}


def test_exactly_one_beat_and_no_embedded_beat_anywhere():
    beats = [name for name, service in SERVICES.items() if "beat" in _command(service)]
    assert beats == ["beat"]
    assert SERVICES["beat"].get("deploy", {}).get("replicas", 1) == 1
    for name, service in SERVICES.items():
        command = _command(service)
        assert "-B" not in command and "--beat" not in command, name


def test_web_and_worker_can_scale():
    for name in ("web", "worker"):
        assert "container_name" not in SERVICES[name], name
        assert "replicas" not in SERVICES[name].get("deploy", {}), name
    assert "ports" not in SERVICES["worker"]
    for port in SERVICES["web"].get("ports", []):
        host_part = str(port).rsplit(":", 1)[0]
        assert "-" in host_part, f"web pins one host port ({port}); a second replica could not bind"


def test_every_long_running_service_has_a_healthcheck():
    for name, service in SERVICES.items():
        if name in ONE_OFF:
            continue
        assert service.get("healthcheck", {}).get("test"), name


def test_migrations_run_once_before_the_app_starts():
    assert SERVICES["migrate"]["restart"] == "no"
    assert _command(SERVICES["migrate"])[-2:] == ["migrate", "--noinput"]
    for name in ("web", "worker", "beat"):
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


def test_web_serves_with_gunicorn():
    assert _command(SERVICES["web"])[0] == "gunicorn"


def test_dockerfile_runs_as_a_non_root_user_and_collects_static_files():
    dockerfile = (Path(settings.BASE_DIR) / "Dockerfile").read_text()
    assert dockerfile.startswith("# ") and "FROM python:3.11-slim" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    user_lines = [line for line in dockerfile.splitlines() if line.startswith("USER ")]
    assert user_lines and user_lines[-1] not in ("USER root", "USER 0")
