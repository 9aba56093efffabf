"""A backup restored into a fresh database is the site, whole: games continue, deadlines
fire, records replay the same (docs/operations.md "Back up and restore").

The test's database holds a game by day (votes and posts in), one at night with its
actions submitted and its deadline passed while "the site was down", and one finished.
`manage.py backup` dumps it; `manage.py restore` loads the dump into a new database; and
the site's own processes run on that one: a vote and a post land, a real worker with beat
(on a Redis of the test's own, empty as after a lost server) resolves the night, and every
game's downloaded record, and the result the engine replays from it, is the same as
before the backup. The night resolved on the restored site is the night the original
database resolves.
"""

import json
import subprocess
import sys
from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game
from tests import stack
from tests.games.conftest import COURT_CAST, make_game, users_for
from tests.site import site_probe

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="pg_dump needs PostgreSQL: set DATABASE_URL to a PostgreSQL database",
    ),
    pytest.mark.django_db(transaction=True),  # pg_dump reads what the test commits
]


def _games(moderator):
    court = users_for(COURT_CAST)  # the members; each plays in all three games
    day = make_game(moderator, court, title="By day")
    services.vote_cast(game=day, user=court["dan"], target="bob")
    services.post_create(game=day, user=court["ann"], body="Good morning, village.")

    night = make_game(moderator, court, cast=COURT_CAST, title="At night")
    services.phase_advance(game=night, by=moderator)
    night.refresh_from_db()
    services.action_submit(game=night, user=court["ann"], action="ability", targets=["ivy"])
    services.action_submit(game=night, user=court["bob"], action="coven", target="jon")
    services.action_submit(game=night, user=court["ivy"], action="ability", targets=["ann"])
    # Its deadline passed while the site was down: the restored clock must end the night.
    Game.objects.filter(pk=night.pk).update(deadline_at=timezone.now() - timedelta(minutes=5))

    done = make_game(moderator, court, title="Finished")
    services.vote_cast(game=done, user=court["eve"], target="hal")
    services.stalemate_declare(game=done, by=moderator)
    return day, night, done


def _admin():
    db = connection.settings_dict
    conn = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"],
        dbname="postgres", autocommit=True,
    )  # fmt: skip
    return conn


def _probe(env, *args):
    ran = subprocess.run(
        [sys.executable, "-m", "tests.site.site_probe", *args],
        cwd=stack.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout.strip().splitlines()[-1])


def _phase(url, game):
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT phase FROM games_game WHERE id = %s", [game.pk]).fetchone()[0]


@pytest.fixture
def fresh_database():
    """A new, empty database beside the test's, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    with _admin() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    yield stack.database_url(name)
    with _admin() as admin:  # WITH (FORCE) ends only this database's connections
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restored_backup_continues_its_games_fires_their_deadlines_and_replays_the_same(
    moderator, tmp_path, fresh_database
):
    day, night, done = _games(moderator)
    before = site_probe.records()
    assert {g["status"] for g in before.values()} == {"running", "finished"}
    dump = tmp_path / "witchhunt.dump"

    with stack.private_redis(tmp_path) as redis:
        original = stack.site_env(database=stack.database_url(), redis=redis)
        backed = stack.manage("backup", str(dump), env=original)
        assert backed.returncode == 0, backed.stderr
        assert dump.stat().st_size > 0

        restored = stack.site_env(database=fresh_database, redis=redis)
        loaded = stack.manage("restore", str(dump), env=restored)
        assert loaded.returncode == 0, loaded.stderr

        # The same games, each record the same text, each replaying to the same result.
        assert _probe(restored, "records") == before
        checked = stack.manage("replay_check", env=restored)
        assert checked.returncode == 0, checked.stderr + checked.stdout

        # A vote and a post land in the game by day.
        landed = _probe(restored, "play", str(day.pk), "eve", "hal", "Back from the backup.")
        assert landed["vote"]["target"] == "hal"
        assert landed["body"] == "Back from the backup."

        # The night's passed deadline fires: a worker with beat, as `make run` starts it.
        with stack.worker(restored, tmp_path, "restored"):
            stack.wait_for(
                lambda: _phase(fresh_database, night) == "day 2",
                timeout=90,
                what="the restored clock to end the night",
            )
        after = _probe(restored, "records")

        # Back to the backup, over the site that went on: refused, then --force.
        again = stack.manage("restore", str(dump), env=restored)
        assert again.returncode == 1 and "is not empty" in again.stderr
        forced = stack.manage("restore", "--force", str(dump), env=restored)
        assert forced.returncode == 0, forced.stderr
        assert _probe(restored, "records") == before

    # The original resolves the same night: the restored one ended it the same way.
    services.phase_advance(game=night, expected_phase="night 1")
    original_after = site_probe.records()
    assert after[str(night.pk)] == original_after[str(night.pk)]
    assert after[str(done.pk)] == before[str(done.pk)]
    # The game by day: the records before, plus the vote just cast.
    day_before = json.loads(before[str(day.pk)]["record"])
    day_after = json.loads(after[str(day.pk)]["record"])
    assert day_after["steps"][: len(day_before["steps"])] == day_before["steps"]
    assert day_after["steps"][len(day_before["steps"]) :] == [landed["vote"]]
