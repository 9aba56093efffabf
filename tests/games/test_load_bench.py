"""The load benchmark's pieces (games/benchmarks/load.py): its start-up follows
docker-compose.yml, it never names the developer's database, and a short run with very
small numbers against real PostgreSQL, Redis, gunicorn and Celery checks the votes and
leaves nothing behind. The run needs PostgreSQL and Redis (CI has both): skipped without.
Speed itself is measured by `manage.py bench --only load`, never here."""

import os
import sys
import types
from pathlib import Path

import pytest

from games.benchmarks import load, loadstack

COMPOSE = loadstack.compose_services()


def test_the_start_up_is_compose_s_with_gunicorn_on_loopback_only(tmp_path):
    kinds = {s.name: s.kind for s in COMPOSE.values()}
    assert list(kinds.values()).count("web") == 1 and "migrate" in kinds.values()
    assert "beat" in kinds.values() and "worker" in kinds.values()
    for service in COMPOSE.values():
        argv = loadstack.local_argv(service, port=8123, folder=tmp_path)
        assert argv[0].endswith(service.argv[0]) or argv[0] == sys.executable
        moved = [a.replace("/tmp/", f"{tmp_path}/") for a in service.argv if "/tmp/" in a]
        assert [a for a in argv if str(tmp_path) in a] == moved  # the run's folder, not /tmp
        if service.kind == "web":
            binds = [a for a in argv if a.startswith("--bind") or a == "-b"]
            assert binds == ["--bind=127.0.0.1:8123"], argv
            # compose's other options, the workers above all, are kept as they are
            assert argv[1:-1] == [a for a in service.argv[1:] if not a.startswith("--bind")]
    workers = [
        loadstack.local_argv(s, port=0, folder=tmp_path)
        for s in COMPOSE.values()
        if s.kind == "worker"
    ]
    names = [next(a for a in argv if a.startswith("--hostname=")) for argv in workers]
    assert len(set(names)) == len(names)  # one node name each, as one container each


def test_the_environment_is_compose_s_with_the_local_servers_put_in(tmp_path):
    servers = {
        "DATABASE_URL": "postgres://a:b@127.0.0.1/x",
        "TRUSTED_PROXIES": "127.0.0.1",
        "SECRET_KEY": "k" * 60,
    }
    web = next(s for s in COMPOSE.values() if s.kind == "web")
    worker = next(s for s in COMPOSE.values() if s.kind == "worker")
    env = loadstack.local_env(web, servers, tmp_path)
    assert env["DJANGO_SETTINGS_MODULE"] == "witchhunt.settings.production"
    assert env["DATABASE_URL"] == servers["DATABASE_URL"] and env["HOME"] == str(tmp_path)
    assert env["TRUSTED_PROXIES"] == "127.0.0.1"
    # Only where compose sets it: the workers trust no proxy there, and none here.
    assert "TRUSTED_PROXIES" not in loadstack.local_env(worker, servers, tmp_path)
    assert "${" not in "".join(env.values())


def test_the_developer_s_own_database_is_never_created_over_or_dropped():
    url = "postgres://who:secret@127.0.0.1:1/witchhunt"  # port 1: nothing is reached
    with pytest.raises(RuntimeError, match="its own"):
        loadstack.database_create(url, "witchhunt")
    with pytest.raises(RuntimeError, match="not dropping"):
        loadstack.database_drop(url, "witchhunt")


def test_without_the_servers_it_says_why_and_does_nothing(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    lines = []
    load.run(lines.append, types.SimpleNamespace())
    assert lines == ["load           skipped: needs DATABASE_URL pointing at PostgreSQL"]


@pytest.mark.slow
@pytest.mark.skipif(
    bool(loadstack.unavailable()),
    reason=f"the load run {loadstack.unavailable()} (CI sets DATABASE_URL and REDIS_URL)",
)
def test_a_short_run_checks_every_vote_and_leaves_nothing_behind():
    lines = []
    name = f"witchhunt_load_test_{os.getpid()}"
    small = {"load_seconds": 1.0, "load_vote_seconds": 1.0, "load_readers": 2, "load_posts": 60}
    small |= {"load_games": 2, "load_lock_votes": 12, "load_database": name}
    run = load.LoadRun(lines.append, **{**load.DEFAULTS, **small})
    run.run()  # raises when a check fails or any request erred
    output = "\n".join(lines)
    checks = [line for line in lines if line.startswith("load.check")]
    assert len(checks) == 2 and all(line.endswith(": ok") for line in checks), output
    assert "1 onlookers through the sign-in page at once" in output
    assert "48 accepted, 0 told the day was over" in output
    assert "25 accepted, 23 told the day was over" in output
    assert "exactly one lynch (load02), now night 1" in output
    read = next(line for line in lines if line.startswith("load.read      2 readers"))
    assert "requests/s" in read and "0 errors" in read
    assert "votes/s into one game" in output  # the lock probe ran
    # Every email the run caused went to the mail sink: role emails for two games of 48,
    # then the lynch's phase emails.
    assert run.sink.messages >= 2 * 48 + 48, output

    # Nothing left: no process, no folder, no database, no Redis keys.
    assert not loadstack.cpu_by_pid(groups=run.processes.started)
    assert not Path(run.folder).exists()
    with loadstack._admin(os.environ["DATABASE_URL"]) as conn:
        assert not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchall()
    import redis

    assert redis.Redis.from_url(run.redis_url).dbsize() == 0


@pytest.mark.slow
@pytest.mark.skipif(
    bool(loadstack.unavailable()),
    reason=f"the load run {loadstack.unavailable()} (CI sets DATABASE_URL and REDIS_URL)",
)
def test_a_connection_left_behind_does_not_keep_the_run_s_database():
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = f"witchhunt_load_left_{os.getpid()}"
    loadstack.database_create(url, name)
    left = psycopg.connect(
        loadstack.with_database(url, name).replace("postgres://", "postgresql://", 1)
    )
    try:
        loadstack.database_drop(url, name)  # the run's own role: ended, then dropped
    finally:
        left.close()
    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchall()
    assert found == []
