"""`manage.py backup` and `manage.py restore` (witchhunt/backup.py): what they refuse, in
words, changing nothing; and how they reach PostgreSQL. The whole story (a backup
restored into a fresh database, the games going on) is tests/games/test_backup_restore.py.
"""

import json
import os
import shutil
import stat
import sys

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from accounts.models import User
from tests import stack

pytestmark = pytest.mark.slow  # each starts pg_dump, pg_restore or manage.py
needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="pg_dump needs PostgreSQL: set DATABASE_URL to a PostgreSQL database",
)

POSTGRES_URL = "postgres://who:secret@127.0.0.1:9/nowhere"  # never reached


def _manage(*args, database, path):
    env = {"PATH": path, "PYTHONPATH": str(stack.ROOT), "DATABASE_URL": database,
           "DJANGO_SETTINGS_MODULE": "witchhunt.settings.test"}  # fmt: skip
    return stack.manage(*args, env=env)


def test_backup_of_a_sqlite_site_is_refused_with_what_to_do_instead(tmp_path):
    dump = tmp_path / "site.dump"
    ran = _manage("backup", str(dump), database=f"sqlite:///{tmp_path}/db.sqlite3",
                  path=os.environ["PATH"])  # fmt: skip
    assert ran.returncode == 1
    assert "The database is SQLite" in ran.stderr
    assert "Back it up by copying that file while the site is stopped" in ran.stderr
    assert not dump.exists()


def test_backup_and_restore_without_the_postgresql_tools_say_what_to_install(tmp_path):
    for command in ("backup", "restore"):
        # A PATH with neither pg_dump nor pg_restore on it.
        ran = _manage(command, str(tmp_path / "site.dump"), database=POSTGRES_URL,
                      path=str(tmp_path))  # fmt: skip
        assert ran.returncode == 1
        tool = "pg_dump" if command == "backup" else "pg_restore"
        assert f"{tool} is not installed or not on the PATH" in ran.stderr
        assert "apt install postgresql-client" in ran.stderr
    assert list(tmp_path.iterdir()) == []


def _spying_pg_dump(folder):
    """A pg_dump that writes down its arguments and its PGPASSWORD, then runs the real one."""
    real = shutil.which("pg_dump")
    spy = folder / "pg_dump"
    spy.write_text(
        f"#!{sys.executable}\n"
        "import os, sys, json\n"
        f"open({str(folder / 'argv.json')!r}, 'w').write(json.dumps(\n"
        "    [sys.argv[1:], os.environ.get('PGPASSWORD')]))\n"
        f"os.execv({real!r}, [{real!r}, *sys.argv[1:]])\n"
    )
    spy.chmod(spy.stat().st_mode | stat.S_IXUSR)
    return folder / "argv.json"


@needs_postgres
@pytest.mark.django_db
def test_backup_passes_the_password_in_the_environment_never_on_the_command_line(
    tmp_path, monkeypatch
):
    spied = _spying_pg_dump(tmp_path)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    dump = tmp_path / "site.dump"
    call_command("backup", str(dump))
    argv, password = json.loads(spied.read_text())
    db = connection.settings_dict
    assert password == db["PASSWORD"]
    # The whole command line: the options, the file, the database's name; no address,
    # user or password (those are PGHOST, PGPORT, PGUSER, PGPASSWORD).
    assert argv == ["--format=custom", "--no-owner", "--no-privileges",
                    f"--file={dump}.partial", db["NAME"]]  # fmt: skip
    assert dump.stat().st_size > 0 and not (tmp_path / "site.dump.partial").exists()

    with pytest.raises(CommandError, match="already exists: choose a new name"):
        call_command("backup", str(dump))


@needs_postgres
@pytest.mark.django_db
def test_restore_into_a_database_with_tables_is_refused(tmp_path, member):
    """(--force, which replaces what the backup holds, is tests/games/test_backup_restore.py's.)"""
    dump = tmp_path / "site.dump"
    call_command("backup", str(dump))
    User.objects.filter(pk=member.pk).update(time_zone="Europe/Paris")
    with pytest.raises(CommandError) as refusal:
        call_command("restore", str(dump))
    assert "is not empty" in str(refusal.value)
    assert "restore into a new, empty database (createdb), or pass --force" in str(refusal.value)
    assert str(refusal.value).endswith("Nothing was changed.")
    assert User.objects.get(pk=member.pk).time_zone == "Europe/Paris"

    with pytest.raises(CommandError, match="There is no backup at"):
        call_command("restore", str(tmp_path / "missing.dump"))


def test_the_image_has_the_postgresql_tools_of_the_postgres_services_version():
    """`docker compose run web python manage.py backup` finds pg_dump, and pg_restore of
    the server's major version (a newer one's archives set options PostgreSQL 15 lacks)."""
    import yaml

    dockerfile = (stack.ROOT / "Dockerfile").read_text()
    compose = yaml.safe_load((stack.ROOT / "docker-compose.yml").read_text())
    assert "FROM python:3.11-slim-bookworm\n" in dockerfile  # Debian 12: PostgreSQL 15
    assert "apt-get install -y --no-install-recommends postgresql-client" in dockerfile
    assert compose["services"]["postgres"]["image"] == "postgres:15"
