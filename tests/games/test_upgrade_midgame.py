"""Upgrade while games run (W-76, docs/operations.md): games started and played part-way
under the previous release's code, then continued under this code, end exactly as the
previous code would have ended them.

The previous release (tests/previous_release.py), the last before rulings revision 3, is
taken from this repository's history (`git archive`) into a temporary folder. On a fresh PostgreSQL
database its code migrates and plays three games up to a deadline that has not yet passed
(tests/games/upgrade/driver.py, run under either release's code): the Summoner's night of
the shared example r3_w8a_summoner_names_lapse_whole_under_2b (revisions 2b and 3 resolve
it differently), the Loose Cannon's day of W-73a (likewise), a King's Court game and a
Werewolf game. The database is copied: on copy
A the previous code finishes the games; on copy B this code migrates and finishes them
with the same remaining inputs, the first deadline passing by a sweep of the clock. Every
stored row, the records and their replays must be the same; the only differences allowed
are the columns and keys the previous code did not have."""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.previous_release import ROOT, previous_release

pytestmark = pytest.mark.slow

DRIVER = ROOT / "tests" / "games" / "upgrade" / "driver.py"
# What the previous release did not store: the game's rulings revision (0015, W-76) and
# the live page's public version (0014), and issue 31's columns: a seat's alias (0026, blank
# unless anonymous), its post counters and the game's edited-posts version (0029). Anything
# else that differs is a changed outcome.
NEW_KEYS = {"revision", "public_changes", "alias", "posts_count", "posts_day_count", "posts_day"}
NEW_KEYS |= {"posts_edited"}

SETTINGS = """\
from witchhunt.settings.test import *  # noqa: F403

# One cache on disk for every process of the test, both releases', as Redis is shared by
# the releases on a site: a state the previous release pickled is there for this one.
CACHES = {{
    "default": {{
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": {cache!r},
        "KEY_PREFIX": "witchhunt",
    }},
    "pages": {{"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
}}
"""


def _ci():
    """CI (.ci/run) sets WITCHHUNT_REQUIRE_BROWSER; other runners set CI."""
    if os.environ.get("WITCHHUNT_REQUIRE_BROWSER", "") not in ("", "0"):
        return True
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _server_url():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        if _ci():
            pytest.fail("the upgrade test needs PostgreSQL: set DATABASE_URL")
        pytest.skip("the upgrade test needs PostgreSQL (DATABASE_URL)")
    return urlsplit(url)


def _url(server, name):
    return urlunsplit(server._replace(path="/" + name))


class Databases:
    """Fresh databases of the test's own, dropped afterwards (only ours)."""

    def __init__(self, server, prefix):
        import psycopg

        self.server, self.prefix, self.names = server, prefix, []
        self.admin = psycopg.connect(_url(server, "postgres"), autocommit=True)

    def create(self, suffix, template=None):
        name = f"{self.prefix}_{suffix}"
        self.drop(name)
        copy = f" TEMPLATE {template}" if template else ""
        self.admin.execute(f"CREATE DATABASE {name}{copy}")
        self.names.append(name)
        return name

    def drop(self, name):
        self.admin.execute(f"DROP DATABASE IF EXISTS {name}")

    def close(self):
        for name in self.names:
            self.drop(name)
        self.admin.close()


@pytest.fixture
def databases():
    server = _server_url()
    dbs = Databases(server, f"{server.path.strip('/')}_upgrade_{os.getpid()}")
    yield dbs
    dbs.close()


def run(tree: Path, settings: Path, url: str, *args) -> str:
    """A command of one release's code on one database: its own tree first on the path
    (not the checkout the virtualenv installs), the test's settings beside it."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tree), str(settings)]),
        "DJANGO_SETTINGS_MODULE": "upgrade_settings",
        "DATABASE_URL": url,
    }
    done = subprocess.run(
        [sys.executable, "-P", *args], cwd=tree, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, f"{args} under {tree} failed:\n{done.stderr[-3000:]}"
    return done.stdout


def differences(old, new, path=""):
    """Where `new` differs from `old`, keys only `new` has being allowed when NEW_KEYS
    names them (a column or record key the previous release did not have)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = [f"{path}/{k}: only the previous release has it" for k in old.keys() - new.keys()]
        out += [f"{path}/{k}: new" for k in new.keys() - old.keys() if k not in NEW_KEYS]
        for key in sorted(old.keys() & new.keys()):
            out += differences(old[key], new[key], f"{path}/{key}")
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        pairs = enumerate(zip(old, new, strict=True))
        return [d for i, (a, b) in pairs for d in differences(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r:.200} became {new!r:.200}"]


def test_games_started_under_the_previous_release_end_as_it_would_have_ended_them(
    tmp_path, databases
):
    old = previous_release(tmp_path / "previous")
    settings = tmp_path / "settings"
    settings.mkdir()
    (settings / "upgrade_settings.py").write_text(SETTINGS.format(cache=str(tmp_path / "cache")))
    driver = str(DRIVER)

    # The previous release: migrate a fresh database, deal the games, play each up to a
    # deadline (the Summoner's night: its midnight passed and a name removed since).
    started = databases.create("started")
    url = _url(databases.server, started)
    run(old, settings, url, "manage.py", "migrate", "--no-input")
    run(old, settings, url, driver, "start")

    copy_a = _url(databases.server, databases.create("a", template=started))
    copy_b = _url(databases.server, databases.create("b", template=started))

    # A: the previous release plays on; B: this release migrates and plays on.
    run(old, settings, copy_a, driver, "finish")
    migrated = run(ROOT, settings, copy_b, "manage.py", "migrate", "--no-input")
    assert "0015_rulings_revision... OK" in migrated
    run(ROOT, settings, copy_b, "manage.py", "replay_check")  # exits 0: nothing differs
    run(ROOT, settings, copy_b, driver, "finish")
    run(ROOT, settings, copy_b, "manage.py", "replay_check")
    run(ROOT, settings, copy_b, driver, "new")

    before = json.loads(run(old, settings, copy_a, driver, "dump"))
    after = json.loads(run(ROOT, settings, copy_b, driver, "dump"))
    new_game = after.pop("new summoner")

    assert sorted(before) == sorted(after) == ["cannon", "court", "summoner", "werewolf"]
    for title, game in sorted(before.items(), key=lambda item: item[0] != "summoner"):
        assert game["game"]["status"] == "finished", title  # played to the end
        assert game["download"]["status"] == 200, title
        assert after[title]["game"]["revision"] == "2b", title
        assert after[title]["record"]["revision"] == "2b", title
        assert after[title]["download"]["json"]["revision"] == "2b", title
        assert differences(game, after[title]) == [], title

    # Under 2b the dead Cannon was still told that the Pauper joined (W-73a, W-76).
    told = [i["to"] for i in after["cannon"]["replay"]["info"] if i["what"] == "court"]
    assert "lc" in told[4:]
    # Under 2b the Summoner's three names lapsed whole: the night killed nobody.
    night = after["summoner"]["replay"]["log"][1]
    assert (night["phase"], night["deaths"]) == ("night 1", ["a2"])
    # A game dealt after the upgrade is revision 3: the names left, Wes and A1, are
    # attacked, and the Village wins that morning (W-8a).
    assert new_game["game"]["revision"] == "3"
    assert new_game["record"]["revision"] == "3"
    night = new_game["replay"]["log"][1]
    assert night["deaths"] == ["a1", "a2", "wes"]
    assert new_game["replay"]["final"]["winner"] == "village"
