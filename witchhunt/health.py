"""The site's health, for docker-compose's healthchecks, Caddy and an operator's monitor
(docs/operations.md, "Watch it"), and the web side's watch on the clock.

Two addresses, answered by `HealthMiddleware` before anything else runs:

- `/health/ready/`: this web process can serve, i.e. the database answers. 200 or 503.
  docker-compose's web healthcheck asks it: a stopped clock must not mark every web
  replica unhealthy (the proxy waits for a healthy one before it starts).
- `/health/`: the whole site: the database, the cache, and how long ago the clock last
  ran. 503 when the database is down or the clock is stale (CLOCK_STALE_SECONDS); a cache
  that is down is reported but is no failure (Redis is only a cache: pages serve from
  PostgreSQL without it).

Both answer JSON with nothing of any game (no counts, no ids), set no cookie, use no
session, and are never cached. They are answered before SecurityMiddleware and
CommonMiddleware, so neither the HTTPS redirect nor ALLOWED_HOSTS applies: a probe inside
the container (`http://127.0.0.1:8000`, whatever names the operator allowed) gets an
answer. That is safe because these answers never read the Host header (no link, no
redirect, nothing cached by it) and say nothing secret; every other address still gets
the redirect and the host check.

The middleware also watches the clock for the site's admins (games/services/clock_watch.py)
at most every CLOCK_WATCH_SECONDS per process, on whatever request comes, so an email
goes out even when nothing polls /health/.
"""

import json
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError
from django.http import HttpResponse
from django.utils import timezone

from games.selectors.heartbeat import clock_beat
from games.services.clock_watch import clock_watch

logger = logging.getLogger(__name__)

READY, FULL = "/health/ready/", "/health/"
OK, DOWN = "ok", "down"


def _json(status: int, body: dict) -> HttpResponse:
    response = HttpResponse(json.dumps(body), status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


def _cache_status() -> str:
    """A round trip through the default cache: a value written and read back. A cache
    that turns its errors into misses is down all the same."""
    key, token = "health-probe", secrets.token_hex(8)
    try:
        cache = caches["default"]
        cache.set(key, token, 30)
        return OK if cache.get(key) == token else DOWN
    except Exception:  # any client error: the cache is unreachable
        return DOWN


def ready() -> HttpResponse:
    try:
        clock_beat()  # one query: the database answers
    except DatabaseError:
        return _json(503, {"status": "failing", "database": DOWN})
    return _json(200, {"status": OK, "database": OK})


def full() -> HttpResponse:
    now = timezone.now()
    body = {"status": OK, "database": OK, "cache": _cache_status()}
    try:
        beat = clock_beat(now)
    except DatabaseError:
        body.update(status="failing", database=DOWN)
        return _json(503, body)
    body["clock"] = {
        "last_ran_seconds_ago": beat.age_seconds,
        "stale_after_seconds": beat.stale_after,
        "stale": beat.stale,
    }
    _watch(now, beat)
    if beat.stale:
        body["status"] = "failing"
    return _json(503 if beat.stale else 200, body)


def _watch(now, beat=None) -> None:
    """The clock watch; its failure (the database or the mail server down) is logged and
    never breaks the request that carried it."""
    try:
        clock_watch(now, beat)
    except Exception:
        logger.exception("the clock watch failed")


class HealthMiddleware:
    """First in MIDDLEWARE: answers the health addresses, and watches the clock."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.next_watch = None  # per process: when the next request runs the clock watch

    def __call__(self, request):
        if request.path in (READY, FULL):
            if request.method not in ("GET", "HEAD"):
                return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
            return ready() if request.path == READY else full()
        self._maybe_watch()
        return self.get_response(request)

    def _maybe_watch(self) -> None:
        every = settings.CLOCK_WATCH_SECONDS
        if every is None:
            return
        now = timezone.now()
        if self.next_watch is not None and now < self.next_watch:
            return
        self.next_watch = now + timedelta(seconds=every)
        _watch(now)
