"""Typed reads of environment variables.

Every bad value raises ImproperlyConfigured naming the variable and what was expected, so a
misconfigured deployment fails at start-up with one readable line instead of later with a
stack trace from deep inside a driver. Values that may hold secrets are never echoed back.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_REQUIRED = object()
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
# Only the two databases the project is tested on; anything else would fail later anyway.
_DATABASE_SCHEMES = frozenset({"postgres", "postgresql", "pgsql", "sqlite"})
_REDIS_SCHEMES = frozenset({"redis", "rediss"})


class Env:
    """Reads one environment mapping (os.environ unless a test passes its own)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self.environ = os.environ if environ is None else environ

    def _raw(self, name: str) -> str | None:
        """The stripped value, or None when unset or blank (blank counts as unset)."""
        value = self.environ.get(name)
        if value is None or not value.strip():
            return None
        return value.strip()

    def get_str(self, name: str, default: str | object = _REQUIRED) -> str:
        value = self._raw(name)
        if value is not None:
            return value
        if default is _REQUIRED:
            raise ImproperlyConfigured(f"Set the {name} environment variable.")
        return default  # type: ignore[return-value]

    def get_bool(self, name: str, default: bool) -> bool:
        value = self._raw(name)
        if value is None:
            return default
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise ImproperlyConfigured(
            f"{name} must be a boolean: one of {', '.join(sorted(_TRUE | _FALSE))} (got {value!r})."
        )

    def get_int(self, name: str, default: int) -> int:
        value = self._raw(name)
        if value is None:
            return default
        try:
            return int(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be a whole number (got {value!r}).") from None

    def get_list(self, name: str, default: list[str] | object = _REQUIRED) -> list[str]:
        """A comma-separated list; blank items are dropped."""
        value = self._raw(name)
        if value is None:
            if default is _REQUIRED:
                raise ImproperlyConfigured(
                    f"Set the {name} environment variable (a comma-separated list)."
                )
            return list(default)  # type: ignore[call-overload]
        return [item.strip() for item in value.split(",") if item.strip()]

    def get_addresses(self, name: str) -> list[tuple[str, str]]:
        """A comma-separated list of email addresses, each `Name <address>` or a bare
        address, as Django's ADMINS wants them: (name, address) pairs; none when unset."""
        value = self._raw(name)
        if value is None:
            return []
        pairs = getaddresses([value])
        if not pairs or any("@" not in address for _name, address in pairs):
            raise ImproperlyConfigured(
                f"{name} must list addresses such as 'Ann <ann@example.org>, bo@example.org'."
            )
        return [(person or address, address) for person, address in pairs]

    def get_networks(self, name: str) -> list[str]:
        """A comma-separated list of IP addresses or networks (CIDR), normalised to
        networks ("10.0.0.1" is "10.0.0.1/32"); none when unset. A network must name its
        first address ("10.0.0.0/8", not "10.0.0.1/8"), so a typo never trusts too much."""
        networks = []
        for item in self.get_list(name, []):
            try:
                networks.append(str(ipaddress.ip_network(item)))
            except ValueError:
                raise ImproperlyConfigured(
                    f"{name} must list IP addresses or networks such as 10.0.0.0/8 (got {item!r})."
                ) from None
        return networks

    def get_database(
        self, name: str, *, default_sqlite: Path | None, conn_max_age: int = 0
    ) -> dict:
        """A Django DATABASES entry from a URL, or an SQLite file when unset and allowed."""
        url = self._raw(name)
        if url is None:
            if default_sqlite is None:
                raise ImproperlyConfigured(
                    f"Set {name}, e.g. postgres://USER:PASSWORD@HOST:5432/NAME."
                )
            return _with_sqlite_options(
                {"ENGINE": "django.db.backends.sqlite3", "NAME": str(default_sqlite)}
            )
        scheme = _scheme(url)
        expected = (
            f"{name} must look like postgres://USER:PASSWORD@HOST:PORT/NAME or sqlite:///PATH"
        )
        if scheme not in _DATABASE_SCHEMES:
            raise ImproperlyConfigured(f"{expected} (got scheme {scheme or 'none'!r}).")
        try:
            config = dj_database_url.parse(
                url, conn_max_age=conn_max_age, conn_health_checks=conn_max_age > 0
            )
        except ValueError as error:
            # The parser's message may quote the URL, password included: keep only its type.
            raise ImproperlyConfigured(f"{expected} ({type(error).__name__}).") from None
        if not config.get("NAME"):
            raise ImproperlyConfigured(f"{expected} (the database name is missing).")
        return _with_sqlite_options(config)

    def get_redis_url(self, name: str) -> str | None:
        url = self._raw(name)
        if url is None:
            return None
        if _scheme(url) not in _REDIS_SCHEMES:
            raise ImproperlyConfigured(
                f"{name} must look like redis://HOST:6379/0 or rediss://... "
                f"(got scheme {_scheme(url) or 'none'!r})."
            )
        try:
            urlsplit(url).port  # noqa: B018 - raises ValueError on a malformed port
        except ValueError:
            raise ImproperlyConfigured(f"{name} has an invalid port.") from None
        return url


def _scheme(url: str) -> str:
    return url.partition("://")[0].lower() if "://" in url else ""


env = Env()


def _with_sqlite_options(config: dict) -> dict:
    """SQLite under make run has a web server and a worker writing at once: IMMEDIATE
    transactions take the write lock up front (a deferred one that reads first cannot be
    upgraded and fails with "database is locked"), and a writer waits up to 20 s."""
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config.setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
    return config
