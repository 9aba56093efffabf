"""Redis is only a cache (and a broker: tests/games/test_broker_outage.py). While it is down
the cache is a miss, sessions come from the database, and the pages, votes and posts of a
signed-in member go on; what changed meanwhile is not read back stale when it returns.

Each test runs a Redis of its own (tests/redis_server.py), which it stops and starts.
"""

import logging
import time

import pytest
from django.core.cache import caches
from django.urls import reverse

from games.models import GameInput, Post
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.conftest import make_game
from tests.redis_server import private_redis  # noqa: F401 - the fixture
from witchhunt import cache as tolerant
from witchhunt.settings.backends import cache_settings

pytestmark = pytest.mark.slow  # a redis-server per test


@pytest.fixture
def redis_caches(settings, private_redis, tmp_path, monkeypatch):  # noqa: F811
    """The production caches (witchhunt/settings/backends.py) on the test's own Redis; a
    backend tries Redis again 0.2 s after an error (5 s on the site) so a test need not wait."""
    settings.CACHES = cache_settings(private_redis.url(), tmp_path)
    monkeypatch.setattr(tolerant, "RETRY_AFTER", 0.2)
    monkeypatch.setattr(tolerant, "_outages", {})  # no other test's outage
    yield private_redis
    for alias in ("default", "pages"):
        caches[alias].close()


def _back(server):
    """Start Redis again, and wait out the backends' pause after their last error."""
    server.start()
    time.sleep(tolerant.RETRY_AFTER + 0.1)


def test_a_dead_redis_is_a_miss_that_costs_milliseconds(redis_caches, caplog):
    cache = caches["default"]
    cache.set("kept", "value", 60)
    assert cache.get("kept") == "value"
    redis_caches.stop()

    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="witchhunt.cache"):
        assert cache.get("kept") is None
        assert cache.get("kept", "default") == "default"
        assert cache.get_many(["kept", "other"]) == {}
        assert cache.has_key("kept") is False
        assert cache.add("lock", "mine", 10) is False  # a lock is not held
        assert cache.get_or_set("computed", lambda: 42, 10) == 42
        cache.set("kept", "new", 60)
        cache.set_many({"a": 1, "b": 2}, 60)
        cache.delete("kept")
        cache.delete_many(["a", "b"])
        cache.touch("kept", 10)
        with pytest.raises(ValueError):
            cache.incr("counter")
        for _ in range(500):  # a busy minute of page reads
            cache.get("kept")
    elapsed = time.monotonic() - started

    assert elapsed < 1.0, f"{elapsed:.2f} s for 510 calls to a dead Redis"
    warnings = [r for r in caplog.records if r.name == "witchhunt.cache"]
    assert len(warnings) == 1 and "cannot be reached" in warnings[0].getMessage()


def test_what_changed_while_redis_was_away_is_not_read_back_stale(redis_caches):
    cache = caches["default"]
    cache.set("session", "signed in", 600)
    cache.set("state", "before the input", 600)
    redis_caches.stop(save=True)  # it comes back with these, as a Redis that persists does

    cache.delete("session")  # signed out while Redis was away
    cache.set("state", "after the input", 600)  # written while Redis was away
    _back(redis_caches)

    assert cache.get("session") is None
    assert cache.get("state") is None  # a miss (read from the database), never "before"
    assert redis_caches.client().keys("*session*") == []


@pytest.mark.django_db
def test_a_signed_in_member_reads_votes_and_posts_while_redis_is_down(
    redis_caches, client, moderator, cast_users
):
    game = make_game(moderator, cast_users)
    ann = cast_users["ann"]
    client.force_login(ann)  # the session: in the database and in Redis
    pages = [reverse(name, args=[game.pk]) for name in ("game_detail", "game_role")]
    for page in pages:
        assert client.get(page, follow=True).status_code == 200  # the caches are warm
    redis_caches.stop()

    started = time.monotonic()
    for page in pages:
        response = client.get(page, follow=True)  # the thread opens where they last read
        assert response.status_code == 200, page
        assert response.wsgi_request.user == ann  # still signed in: the session's row
    inputs = GameInput.objects.filter(game=game).count()
    response = client.post(reverse("game_vote", args=[game.pk]), {"target": "bob"})
    assert response.status_code == 302
    response = client.post(reverse("game_post", args=[game.pk]), {"body": "Redis is down"})
    assert response.status_code == 302
    assert "bob" in str(GameInput.objects.filter(game=game).order_by("index").last().step)
    assert GameInput.objects.filter(game=game).count() == inputs + 1
    assert Post.objects.filter(game=game, body__contains="Redis is down").exists()
    thread = client.get(reverse("game_detail", args=[game.pk]), follow=True).content.decode()
    assert "Redis is down" in thread

    mod = client.__class__()
    mod.force_login(moderator)  # signs in while Redis is down: the session's row alone
    assert mod.get(reverse("game_desk", args=[game.pk])).status_code == 200
    assert time.monotonic() - started < 10  # no request waited on Redis

    _back(redis_caches)
    response = client.get(pages[0], follow=True)
    assert response.status_code == 200 and response.wsgi_request.user == ann
    assert "Redis is down" in response.content.decode()


@pytest.mark.django_db
def test_sign_in_is_refused_while_redis_is_down_not_left_uncounted(redis_caches, client):
    """allauth counts failed sign-ins in the cache: with nothing counted, its lock (`add`)
    is not held and the form refuses, so a password cannot be guessed meanwhile."""
    member = UserFactory()
    login = reverse("account_login")
    redis_caches.stop()

    response = client.post(login, {"login": member.email, "password": DEFAULT_PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session

    _back(redis_caches)
    response = client.post(login, {"login": member.email, "password": DEFAULT_PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(member.pk)
