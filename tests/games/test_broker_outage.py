"""Lose a server, lose nothing: Redis (the cache and the broker) stopped or flushed
mid-game, and the database's connections terminated, with a real Celery worker taking the
clock's and the emails' queues and a real mail server on loopback.

The broker and the cache are a Redis of the test's own (tests/redis_server.py); the beat
is played by the test, which sends the beat's entries as beat does. The worker reads
what the requests wrote, so the tests commit (transaction=True).
"""

import time
from datetime import timedelta
from urllib.parse import urlencode

import psycopg
import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.conf import settings as django_settings
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection, connections
from django.test import Client, RequestFactory
from django.test.client import FakePayload
from django.urls import reverse
from django.utils import timezone

from games import queue
from games.models import EmailSent, Game, GameInput, HeldJob, Post
from tests.games.conftest import make_game
from tests.games.smtp_server import SmtpServer, wait_for
from tests.redis_server import private_redis  # noqa: F401 - the fixture
from witchhunt import cache as tolerant
from witchhunt.settings.backends import cache_settings
from witchhunt.settings.env import env

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
JOBS = ("game_role_emails", "game_phase_emails", "post_notification_emails", "notice_emails",
        "vote_alerts", "emails_send", "clock_sweep_more")  # fmt: skip


@pytest.fixture
def smtp(settings):
    server = SmtpServer().start()
    server.settings(settings)
    yield server
    server.stop()


@pytest.fixture
def stack(settings, private_redis, tmp_path, monkeypatch, smtp):  # noqa: F811
    """The site's caches and broker on the test's own Redis, a worker thread taking the
    clock's and the emails' queues, the jobs the services ask for queued on it; `beat()`
    sends the clock's and the held jobs' entries, as beat does."""
    settings.CACHES = cache_settings(private_redis.url(), tmp_path)
    monkeypatch.setattr(tolerant, "RETRY_AFTER", 0.2)
    monkeypatch.setattr(tolerant, "_outages", {})
    monkeypatch.setattr(queue, "HOLD_SECONDS", 0.2)
    app = Celery("witchhunt-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(broker_url=private_redis.url(), broker_transport_options={})
    app.finalize()
    before = dict(queue._jobs)
    for name in JOBS:
        queue.connect_job(name, app.tasks[f"games.tasks.{name}"].delay)
    worker = start_worker(
        app, pool="solo", perform_ping_check=False, loglevel="ERROR", queues=["clock", "email"],
    )  # fmt: skip
    schedule = django_settings.CELERY_BEAT_SCHEDULE

    def beat():
        for entry in ("clock-sweep", "held-jobs-sweep", "email-sweep"):
            try:
                app.send_task(schedule[entry]["task"])
            except Exception:  # beat logs it and sends again at the next tick
                pass

    app.beat = beat
    app.redis = private_redis
    app.smtp = smtp
    with worker:
        yield app
    queue._jobs.clear()
    queue._jobs.update(before)
    connections.close_all()


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _url(name, game):
    return reverse(name, args=[game.pk])


def _phase_emails(smtp, words):
    return sorted(r for r, subject in smtp.messages if words in subject)


def _every_second(app):
    last = [0.0]

    def tick():
        if time.monotonic() - last[0] >= 1:
            last[0] = time.monotonic()
            app.beat()

    return tick


def test_while_redis_is_down_votes_and_posts_land_and_the_clock_catches_up(
    stack, moderator, cast_users
):
    game = make_game(moderator, cast_users)
    assert wait_for(lambda: len(stack.smtp.messages) == 9)  # the role emails, the notice
    ann, mod = _signed_in(cast_users["ann"]), _signed_in(moderator)
    stack.redis.stop()  # the cache and the broker with it

    started = time.monotonic()
    assert ann.post(_url("game_vote", game), {"target": "bob"}).status_code == 302
    assert ann.post(_url("game_post", game), {"body": "Is anyone there?"}).status_code == 302
    response = mod.post(_url("game_desk_advance", game), {"phase": "day 1", "confirm": "yes"})
    assert response.status_code == 302
    assert time.monotonic() - started < 10  # no request hung on the broker
    game.refresh_from_db()
    assert game.phase == "night 1"
    assert Post.objects.filter(game=game, body="Is anyone there?").exists()
    steps = [str(s) for s in GameInput.objects.filter(game=game).values_list("step", flat=True)]
    assert "bob" in steps[-2] and "advance" in steps[-1]  # the vote, then the moderator's
    # The night's emails could not be queued: held in the database, not lost.
    assert HeldJob.objects.filter(name="game_phase_emails").exists()
    # Night 1's deadline passes while Redis is down.
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    time.sleep(1)
    assert Game.objects.get(pk=game.pk).phase == "night 1"

    stack.redis.start()  # empty: what the broker held is gone too
    tick = _every_second(stack)
    assert wait_for(lambda: Game.objects.get(pk=game.pk).phase == "day 2", 60, then=tick)
    everyone = sorted(f"{p}@example.com" for p in PLAYERS)
    assert wait_for(lambda: _phase_emails(stack.smtp, "Night 1") == everyone, 60, then=tick)
    assert wait_for(lambda: len(_phase_emails(stack.smtp, "Day 2")) >= 1, 60, then=tick)
    assert not HeldJob.objects.exists()
    assert EmailSent.objects.filter(game=game, phase="night 1").count() == 8


def test_flushing_redis_mid_game_loses_no_vote_post_session_or_deadline(
    stack, moderator, cast_users
):
    game = make_game(moderator, cast_users)
    ann = _signed_in(cast_users["ann"])
    assert ann.post(_url("game_vote", game), {"target": "bob"}).status_code == 302
    assert ann.post(_url("game_post", game), {"body": "Before the flush"}).status_code == 302
    assert ann.get(_url("game_detail", game), follow=True).status_code == 200  # cached parts
    stack.redis.client().flushall()  # the states, the sessions, the queued tasks

    response = ann.get(_url("game_detail", game), follow=True)
    assert response.status_code == 200 and response.wsgi_request.user == cast_users["ann"]
    assert "Before the flush" in response.content.decode()
    assert ann.post(_url("game_vote", game), {"target": "cat"}).status_code == 302
    steps = [str(s) for s in GameInput.objects.filter(game=game).values_list("step", flat=True)]
    assert "bob" in steps[-2] and "cat" in steps[-1]  # the state replayed from the rows
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))

    assert wait_for(lambda: Game.objects.get(pk=game.pk).phase == "night 1", 60, then=stack.beat)


def _terminate_this_databases_connections():
    """pg_terminate_backend on every other client connection to the test's database (and
    no other database's), as a PostgreSQL restart or failover would. Not the server's own
    processes: an autovacuum worker on that database is the superuser's, and only the
    superuser may end it."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        name = connection.settings_dict["NAME"]
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
            [name],
        ).fetchall()
    return len(rows)


@pytest.fixture
def production_connections():
    """Connections kept between requests and checked before reuse, as production.py asks
    (witchhunt/settings/env.py with conn_max_age); the next connection is made with them."""
    production = env.get_database("DATABASE_URL", default_sqlite=None, conn_max_age=60)
    config = connection.settings_dict
    before = {k: config[k] for k in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS")}
    config.update({k: production[k] for k in before})
    connection.close()
    yield
    config.update(before)
    connection.close()


def _request(method, path, session, data=None):
    """One request through Django's WSGI handler, as gunicorn makes it: its signals open,
    check and keep the thread's database connection (the test client's do not)."""
    factory = RequestFactory()
    body = urlencode(data or {})
    request = factory.generic(
        method, path, body, content_type="application/x-www-form-urlencoded",
        HTTP_COOKIE=f"{django_settings.SESSION_COOKIE_NAME}={session}",
    )  # fmt: skip
    environ = {**request.environ, "wsgi.input": FakePayload(body.encode())}
    statuses = []
    response = WSGIHandler()(environ, lambda status, headers: statuses.append(status))
    response.close()  # request_finished: the connection is kept (CONN_MAX_AGE)
    # The status as the server reads it: a WSGI middleware (Sentry's, once a test has
    # started it) may wrap the response object.
    return int(statuses[0].split()[0])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="terminates PostgreSQL backends")
def test_terminated_database_connections_cost_no_later_request_and_no_deadline(
    production_connections, stack, moderator, cast_users, settings
):
    settings.CSRF_COOKIE_NAME = "unused"  # a form posted without the page first
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "Csrf" not in m]
    game = make_game(moderator, cast_users)
    session = _signed_in(cast_users["ann"]).cookies[django_settings.SESSION_COOKIE_NAME].value
    role = _url("game_role", game)
    assert _request("GET", role, session) == 200
    assert connection.connection is not None  # kept between requests
    stack.beat()  # the worker's connection is open too
    time.sleep(1)

    assert _terminate_this_databases_connections() >= 1  # the kept one at least
    assert _request("GET", role, session) == 200  # checked, found closed, made anew
    body = {"body": "After the restart"}
    assert _request("POST", _url("game_post", game), session, body) == 302
    assert Post.objects.filter(game=game, body="After the restart").exists()
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert wait_for(lambda: Game.objects.get(pk=game.pk).phase == "night 1", 60, then=stack.beat)
