import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from tests.production_env import PRODUCTION_ENV
from witchhunt.settings.env import Env

ROOT = Path(settings.BASE_DIR)


@pytest.mark.parametrize(
    ("raw", "value"), [("true", True), ("ON", True), ("0", False), ("no", False)]
)
def test_bool_reads_common_spellings(raw, value):
    assert Env({"FLAG": raw}).get_bool("FLAG", default=not value) is value


def test_bool_falls_back_to_default_when_unset_or_blank():
    assert Env({}).get_bool("FLAG", default=True) is True
    assert Env({"FLAG": "  "}).get_bool("FLAG", default=False) is False


def test_bad_bool_names_the_variable():
    with pytest.raises(
        ImproperlyConfigured, match=r"SECURE_SSL_REDIRECT must be a boolean.*'maybe'"
    ):
        Env({"SECURE_SSL_REDIRECT": "maybe"}).get_bool("SECURE_SSL_REDIRECT", default=True)


def test_bad_int_names_the_variable():
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT must be a whole number"):
        Env({"EMAIL_PORT": "25x"}).get_int("EMAIL_PORT", default=25)


def test_missing_required_value_names_the_variable():
    with pytest.raises(ImproperlyConfigured, match="Set the SECRET_KEY environment variable"):
        Env({}).get_str("SECRET_KEY")


def test_list_splits_on_commas_and_drops_blanks():
    env = Env({"ALLOWED_HOSTS": " example.com, ,www.example.com "})
    assert env.get_list("ALLOWED_HOSTS") == ["example.com", "www.example.com"]


def test_database_defaults_to_sqlite_file_when_unset(tmp_path):
    config = Env({}).get_database("DATABASE_URL", default_sqlite=tmp_path / "db.sqlite3")
    assert config == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(tmp_path / "db.sqlite3"),
        # A web server and a worker write at once under make run.
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }


def test_database_url_for_postgres_is_parsed():
    env = Env({"DATABASE_URL": "postgres://who:secret@db.internal:5433/witchhunt"})
    config = env.get_database("DATABASE_URL", default_sqlite=None, conn_max_age=60)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 5433, "witchhunt")
    assert (config["CONN_MAX_AGE"], config["CONN_HEALTH_CHECKS"]) == (60, True)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("mysql://who:secret@host/db", "got scheme 'mysql'"),
        ("localhost:5432/db", "got scheme 'none'"),
        ("postgres://who:secret@host:port/db", "ParseError"),
        ("postgres://who:secret@host:5432/", "the database name is missing"),
    ],
)
def test_bad_database_url_is_refused_clearly_without_echoing_the_password(url, reason):
    with pytest.raises(ImproperlyConfigured) as error:
        Env({"DATABASE_URL": url}).get_database("DATABASE_URL", default_sqlite=None)
    message = str(error.value)
    assert message.startswith("DATABASE_URL must look like postgres://")
    assert reason in message
    assert "secret" not in message


def test_database_url_required_when_no_sqlite_fallback():
    with pytest.raises(ImproperlyConfigured, match="Set DATABASE_URL"):
        Env({}).get_database("DATABASE_URL", default_sqlite=None)


@pytest.mark.parametrize("url", ["http://redis:6379/0", "redis://redis:notaport/0"])
def test_bad_redis_url_is_refused(url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        Env({"REDIS_URL": url}).get_redis_url("REDIS_URL")


def test_networks_read_addresses_and_ranges():
    env = Env({"TRUSTED_PROXIES": " 172.30.253.10, 10.0.0.0/8 ,2001:db8::/32"})
    assert env.get_networks("TRUSTED_PROXIES") == [
        "172.30.253.10/32", "10.0.0.0/8", "2001:db8::/32"
    ]  # fmt: skip
    assert Env({}).get_networks("TRUSTED_PROXIES") == []


@pytest.mark.parametrize("value", ["proxy", "10.0.0.1/33", "10.0.0.1/8", "300.1.1.1"])
def test_bad_network_names_the_variable(value):
    with pytest.raises(ImproperlyConfigured, match=f"TRUSTED_PROXIES.*{re.escape(value)}"):
        Env({"TRUSTED_PROXIES": value}).get_networks("TRUSTED_PROXIES")


def _import_production(**overrides: str) -> subprocess.CompletedProcess:
    """Imports the production settings in a fresh interpreter with exactly this environment."""
    environ = {
        "PATH": os.environ["PATH"],
        **PRODUCTION_ENV,
        **overrides,
    }
    return subprocess.run(
        [sys.executable, "-c", "import witchhunt.settings.production"],
        cwd=ROOT,
        env={name: value for name, value in environ.items() if value},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_production_settings_load_with_a_complete_environment():
    result = _import_production()
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"SECRET_KEY": ""}, "Set the SECRET_KEY environment variable"),
        ({"SECRET_KEY": "too-short"}, "SECRET_KEY must be a random value"),
        ({"ALLOWED_HOSTS": ""}, "Set the ALLOWED_HOSTS environment variable"),
        ({"DATABASE_URL": ""}, "Set DATABASE_URL"),
        ({"REDIS_URL": ""}, "Set REDIS_URL"),
        ({"SECURE_SSL_REDIRECT": "sometimes"}, "SECURE_SSL_REDIRECT must be a boolean"),
        ({"EMAIL_USE_SSL": "true"}, "at most one of EMAIL_USE_TLS and EMAIL_USE_SSL"),
        ({"TRUSTED_PROXIES": "caddy"}, "TRUSTED_PROXIES must list IP addresses or networks"),
    ],
)
def test_production_settings_refuse_a_bad_environment(overrides, message):
    result = _import_production(**overrides)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr
