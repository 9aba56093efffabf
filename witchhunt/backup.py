"""Backing up and restoring the site's PostgreSQL database: pg_dump's custom format and
pg_restore, with the connection read from settings.DATABASES (`manage.py backup` and
`manage.py restore`, docs/operations.md "Back up and restore").

PostgreSQL holds everything that matters: games, inputs, posts, members, the email outbox.
Redis holds nothing to back up: it is a cache (rebuilt from the rows) and the broker (the
sweeps find every due game again). The password reaches the tools in PGPASSWORD, never on
their command line, where any user of the machine could read it (`ps`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.db import connections

# pg_dump's and pg_restore's own variables: the connection travels in the environment.
_ENV = {"HOST": "PGHOST", "PORT": "PGPORT", "USER": "PGUSER", "PASSWORD": "PGPASSWORD"}


class BackupError(Exception):
    """A backup or a restore that cannot be done, in words an operator acts on."""


def postgres_database(alias: str = "default") -> dict:
    """The settings of database `alias`; BackupError unless it is PostgreSQL."""
    database = settings.DATABASES[alias]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        raise BackupError(
            f"The database is SQLite ({database['NAME']}): pg_dump and pg_restore do not "
            "apply. Back it up by copying that file while the site is stopped (or with "
            "sqlite3's .backup command while it runs); restore by copying it back."
        )
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise BackupError(f"Only PostgreSQL can be backed up here, not {database['ENGINE']}.")
    return database


def tool(name: str) -> str:
    """The path of pg_dump or pg_restore; BackupError when it is not installed."""
    path = shutil.which(name)
    if path is None:
        raise BackupError(
            f"{name} is not installed or not on the PATH. Install PostgreSQL's client tools "
            "(Debian: apt install postgresql-client), of the server's major version or newer."
        )
    return path


def connection_env(database: dict) -> dict[str, str]:
    """The environment the tools connect with: this process's, plus the database's
    address, user and password as PG* variables."""
    env = dict(os.environ)
    for key, variable in _ENV.items():
        if database.get(key):
            env[variable] = str(database[key])
    sslmode = (database.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = sslmode
    return env


def _run(argv: list[str], database: dict) -> None:
    ran = subprocess.run(argv, env=connection_env(database), capture_output=True, text=True)
    if ran.returncode != 0:
        raise BackupError(f"{Path(argv[0]).name} failed: {ran.stderr.strip()}")


def backup(path: Path, *, alias: str = "default") -> Path:
    """Dump database `alias` to `path` (pg_dump's custom format, compressed); returns it.

    Written beside `path` first and renamed once pg_restore can read it back, so a dump
    that fails half-way never leaves a file that looks like a backup."""
    database = postgres_database(alias)
    pg_dump, pg_restore = tool("pg_dump"), tool("pg_restore")
    path = Path(path)
    if path.exists():
        raise BackupError(f"{path} already exists: choose a new name (e.g. with the date).")
    partial = path.with_name(path.name + ".partial")
    try:
        # --no-owner/--no-privileges: the restore may run as another role.
        _run(
            [pg_dump, "--format=custom", "--no-owner", "--no-privileges",
             f"--file={partial}", database["NAME"]],
            database,
        )  # fmt: skip
        _run([pg_restore, "--list", str(partial)], database)  # the archive reads back
        partial.rename(path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def tables(alias: str = "default") -> list[str]:
    """The tables database `alias` has now (none in a fresh one)."""
    with connections[alias].cursor() as cursor:
        return connections[alias].introspection.table_names(cursor)


def restore(path: Path, *, alias: str = "default", force: bool = False) -> None:
    """Restore the dump at `path` into database `alias`, in one transaction: all of it or,
    on any error, nothing. An empty database is expected (createdb); one that has tables
    is refused unless `force`, which drops and recreates each object the dump holds."""
    database = postgres_database(alias)
    pg_restore = tool("pg_restore")
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"There is no backup at {path}.")
    present = tables(alias)
    if present and not force:
        raise BackupError(
            f"The database {database['NAME']} is not empty ({len(present)} tables): restore "
            "into a new, empty database (createdb), or pass --force to replace what the "
            "backup holds. Nothing was changed."
        )
    connections[alias].close()  # pg_restore's transaction must not wait on ours
    argv = [pg_restore, "--no-owner", "--no-privileges", "--exit-on-error",
            "--single-transaction", f"--dbname={database['NAME']}"]  # fmt: skip
    if present:
        argv += ["--clean", "--if-exists"]
    _run([*argv, str(path)], database)
