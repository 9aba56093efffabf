"""The health endpoints and the clock watch (witchhunt/health.py,
games/services/clock_watch.py): what a monitor, docker-compose and the site's admins see
when the database, the cache or the clock fails."""

import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test import Client

from games.models import ClockHeartbeat
from games.services.clock_watch import heartbeat_beat

T0 = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
ADMINS = [("Operator", "ops@example.org")]
KEYS = {"status", "database", "cache", "clock"}


def _at(seconds):
    return T0 + timedelta(seconds=seconds)


def _health(client, path="/health/", **extra):
    response = client.get(path, **extra)
    return response, json.loads(response.content)


@pytest.fixture
def watch(settings):
    settings.ADMINS = ADMINS
    settings.CLOCK_WATCH_SECONDS = 60
    settings.CLOCK_STALE_SECONDS = 180
    return settings


@pytest.mark.django_db
def test_health_is_200_with_the_clock_fresh_and_says_nothing_else(client, watch):
    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    with time_machine.travel(_at(12), tick=False):
        response, body = _health(client)
    assert response.status_code == 200
    assert set(body) == KEYS
    assert body["database"] == "ok" and body["cache"] == "ok" and body["status"] == "ok"
    assert body["clock"] == {
        "last_ran_seconds_ago": 12, "stale_after_seconds": 180, "stale": False
    }  # fmt: skip
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies, "no session, no CSRF cookie"


@pytest.mark.django_db
def test_health_is_503_once_the_clock_is_stale_and_ready_is_not(client, watch):
    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    with time_machine.travel(_at(180), tick=False):
        assert _health(client)[0].status_code == 200
    with time_machine.travel(_at(181), tick=False):
        response, body = _health(client)
        ready, ready_body = _health(client, "/health/ready/")
    assert response.status_code == 503
    assert body["status"] == "failing" and body["clock"]["stale"] is True
    # docker-compose's web healthcheck: a dead beat must not mark the web servers unhealthy.
    assert ready.status_code == 200 and ready_body == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
def test_health_counts_a_clock_that_never_ran_as_stale(client, watch):
    ClockHeartbeat.objects.all().delete()
    response, body = _health(client)
    assert response.status_code == 503
    assert body["clock"]["last_ran_seconds_ago"] is None and body["clock"]["stale"] is True


@pytest.mark.django_db
def test_health_answers_any_host_over_http_while_other_pages_keep_their_checks(client, settings):
    settings.ALLOWED_HOSTS = ["witchhunt.example"]
    settings.SECURE_SSL_REDIRECT = True
    heartbeat_beat()
    # The probe inside the container: plain HTTP to 127.0.0.1:8000.
    for path in ("/health/", "/health/ready/"):
        assert client.get(path, HTTP_HOST="127.0.0.1:8000").status_code == 200, path
    # Every other address still refuses an unknown host and redirects to HTTPS.
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400
    home = client.get("/", HTTP_HOST="witchhunt.example")
    assert home.status_code == 301 and home["Location"].startswith("https://witchhunt.example")
    assert client.post("/health/").status_code == 405


@pytest.mark.django_db
def test_health_reports_a_cache_that_is_down_without_failing(client, settings):
    """Redis is only a cache: the site serves without it, so it is reported, not a 503.
    A real Redis client against a port nothing listens on."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    }
    heartbeat_beat()
    response, body = _health(client)
    assert body["cache"] == "down"
    assert response.status_code == 200


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_health_is_503_when_the_database_is_down(client):
    """The database's address made unreachable (a port nothing listens on), for this
    test's own connection only: both endpoints answer 503 and say so."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (an in-memory SQLite database cannot be cut off)")
    heartbeat_beat()
    port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "1"
    try:
        response, body = _health(client)
        ready, ready_body = _health(client, "/health/ready/")
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port
    assert response.status_code == 503 and body["database"] == "down"
    assert "clock" not in body
    assert ready.status_code == 503 and ready_body["database"] == "down"


# --- the admins' email when the clock stops ---------------------------------------------------
def _subjects():
    return [message.subject for message in mail.outbox]


def _visit(client, seconds):
    with time_machine.travel(_at(seconds), tick=False):
        assert client.get("/").status_code == 200


@pytest.mark.django_db
def test_a_stale_clock_emails_the_admins_once_then_once_when_back_then_again(client, watch):
    """From the web side (beat is dead): any page's request, at most once a minute per
    process, checks the heartbeat; one email per stale episode, one when it is back."""
    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    _visit(client, 170)  # fresh: nothing; the next check is due at 230
    _visit(client, 200)  # stale, but checked less than a minute ago: nothing yet
    assert mail.outbox == []
    _visit(client, 231)
    assert _subjects() == ["[Witchhunt] The clock has stopped"]
    assert mail.outbox[0].to == ["ops@example.org"]
    _visit(client, 400)
    _visit(client, 900)  # still the same episode: no second email
    assert len(mail.outbox) == 1
    with time_machine.travel(_at(1000), tick=False):
        heartbeat_beat()  # the clock is back
    _visit(client, 1010)
    assert _subjects()[1:] == ["[Witchhunt] The clock is back"]
    _visit(client, 1300)  # stale again (last beat at 1000): a new episode, a new email
    assert _subjects()[2:] == ["[Witchhunt] The clock has stopped"]
    body = mail.outbox[0].body
    assert "2026-05-04 12:00:00 UTC" in body and "game" not in body.lower()


@pytest.mark.django_db
def test_the_episode_is_claimed_once_in_the_database_across_processes(watch):
    """Two web processes (two clients, each its own middleware and minute): one email."""
    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    first, second = Client(), Client()
    _visit(first, 300)
    _visit(second, 301)
    with time_machine.travel(_at(302), tick=False):
        _health(second)  # the health endpoint watches on every call
    assert _subjects() == ["[Witchhunt] The clock has stopped"]
    assert ClockHeartbeat.objects.get().stale_alerted_at == _at(300)


@pytest.mark.django_db
def test_the_health_endpoint_watches_the_clock_too(client, watch):
    watch.CLOCK_WATCH_SECONDS = None  # ordinary requests never check: only /health/
    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    _visit(client, 500)
    assert mail.outbox == []
    with time_machine.travel(_at(501), tick=False):
        _health(client)
    assert _subjects() == ["[Witchhunt] The clock has stopped"]


@pytest.mark.django_db
def test_a_failed_email_gives_the_episode_back_for_the_next_check(client, watch):
    """The mail server down (a real SMTP connection to a closed port): the claim is
    given back, and the next check, with the mail server back, sends the email."""
    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    watch.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    watch.EMAIL_HOST, watch.EMAIL_PORT, watch.EMAIL_TIMEOUT = "127.0.0.1", 1, 2
    watch.EMAIL_USE_TLS = watch.EMAIL_USE_SSL = False
    _visit(client, 300)  # the page still serves
    assert ClockHeartbeat.objects.get().stale_alerted_at is None
    watch.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    _visit(client, 361)
    assert _subjects() == ["[Witchhunt] The clock has stopped"]


@pytest.mark.django_db
def test_two_processes_that_both_saw_the_clock_stale_send_one_email(watch):
    """The race the database's claim settles: both read "stale, nobody told" before
    either claimed; the conditional UPDATE lets one of them send."""
    from games.selectors.heartbeat import clock_beat
    from games.services.clock_watch import clock_watch

    with time_machine.travel(T0, tick=False):
        heartbeat_beat()
    now = _at(300)
    seen_by_both = clock_beat(now)
    assert seen_by_both.stale and not seen_by_both.alerted
    assert [clock_watch(now, seen_by_both), clock_watch(now, seen_by_both)] == ["stopped", None]
    assert _subjects() == ["[Witchhunt] The clock has stopped"]
    with time_machine.travel(_at(400), tick=False):
        heartbeat_beat()
    back = clock_beat(_at(401))
    assert [clock_watch(_at(401), back), clock_watch(_at(401), back)] == ["back", None]
    assert len(mail.outbox) == 2
