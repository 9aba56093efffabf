"""Redis as a cache and nothing more: while it cannot be reached, every read is a miss and
every write a no-op, so the pages serve from PostgreSQL (docs/operations.md, "Lose a
server, lose nothing").

- A dead Redis costs milliseconds: a short connect and read timeout, no retries, and after
  a connection error the backend does not try again for RETRY_AFTER seconds (each call in
  between is a miss at once). One warning per WARN_EVERY seconds says so in the logs.
- Nothing stale comes back with it. A write or delete that could not reach Redis leaves
  its key as it was there (a signed-out session, a state whose input rolled back); such
  keys are remembered, in this process, and deleted before anything else is read once
  Redis answers again.
- Any other Redis error (a full Redis refusing writes under noeviction) is a miss too,
  logged, without pausing the backend.

What relies on the cache for more than speed decides for itself what a miss means:
allauth's rate limits take a lock with `add`, which fails, so the sign-in, sign-up and
password forms refuse (HTTP 429) while Redis is down rather than count nothing; the setup
lab's start refuses as busy (its jobs live in the cache).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT = 0.25  # seconds: Redis is on the local network
READ_TIMEOUT = 1.0
RETRY_AFTER = 5.0  # seconds without a try after a connection error
WARN_EVERY = 60.0  # seconds between two warnings of the same outage
DIRTY_MAX = 100_000  # keys remembered at most (a long outage's writes beyond are logged)


class _Outage:
    """One process's view of one Redis: when to try it again, what to delete when it is back."""

    def __init__(self):
        self.lock = threading.Lock()
        self.retry_at = 0.0
        self.warned_at = float("-inf")
        self.dirty: set[str] = set()
        self.overflowed = False

    def open(self) -> bool:
        return time.monotonic() < self.retry_at

    def failed(self, exc: Exception) -> None:
        now = time.monotonic()
        with self.lock:
            self.retry_at = now + RETRY_AFTER
            warn = now - self.warned_at >= WARN_EVERY
            if warn:
                self.warned_at = now
        if warn:
            logger.warning(
                "the cache (Redis) cannot be reached (%s): reads are misses, writes are "
                "skipped, until it answers",
                exc,
            )

    def remember(self, keys) -> None:
        with self.lock:
            room = DIRTY_MAX - len(self.dirty)
            keys = list(keys)
            self.dirty.update(keys[: max(room, 0)])
            if len(keys) > room and not self.overflowed:
                self.overflowed = True
                logger.error(
                    "the cache missed more than %d writes while Redis was down: stale "
                    "entries may be read until they time out",
                    DIRTY_MAX,
                )

    def take_dirty(self) -> list[str]:
        with self.lock:
            keys, self.dirty, self.overflowed = list(self.dirty), set(), False
            return keys


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_for(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


class TolerantRedisCache(RedisCache):
    """Django's RedisCache, where an unreachable Redis is a miss (see the module)."""

    def __init__(self, server, params):
        options = {
            "socket_connect_timeout": CONNECT_TIMEOUT,
            "socket_timeout": READ_TIMEOUT,
            "retry": Retry(NoBackoff(), 0),  # redis-py retries 3 times by default
            **params.get("OPTIONS", {}),
        }
        super().__init__(server, {**params, "OPTIONS": options})
        # Shared by the threads of a process (Django makes a backend per thread).
        self._outage = _outage_for(f"{server}|{params.get('KEY_PREFIX', '')}")

    def _made(self, keys, version) -> list[str]:
        return [self.make_and_validate_key(k, version=version) for k in keys]

    def _try(self, call, miss, *, writes=()):
        """`call()`, or `miss` when Redis cannot be reached; `writes` are the made keys
        `call` would change, remembered when it cannot."""
        outage = self._outage
        if outage.open():
            outage.remember(writes)
            return miss
        try:
            if outage.dirty:
                self._forget_stale(outage)
            return call()
        except (RedisConnectionError, RedisTimeoutError) as exc:
            outage.failed(exc)
            outage.remember(writes)
            return miss
        except RedisError:
            logger.warning("the cache refused a command: a miss", exc_info=True)
            outage.remember(writes)
            return miss

    def _forget_stale(self, outage: _Outage) -> None:
        keys = outage.take_dirty()
        try:
            for i in range(0, len(keys), 1000):
                self._cache.delete_many(keys[i : i + 1000])
        except RedisError:
            outage.remember(keys)
            raise
        logger.info("the cache is back: %d entries written while it was away deleted", len(keys))

    # --- reads: a miss -----------------------------------------------------------------------
    def get(self, key, default=None, version=None):
        return self._try(
            lambda: super(TolerantRedisCache, self).get(key, default, version), default
        )

    def get_many(self, keys, version=None):
        return self._try(lambda: super(TolerantRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._try(lambda: super(TolerantRedisCache, self).has_key(key, version), False)

    # --- writes: skipped, their keys remembered ---------------------------------------------
    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        parent, made = super(), self._made([key], version)
        return self._try(lambda: parent.set(key, value, timeout, version), None, writes=made)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        parent = super()
        # Not added: a lock taken with `add` is not held (allauth's, the lab's).
        return self._try(lambda: parent.add(key, value, timeout, version), False)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        parent, made = super(), self._made(data, version)
        return self._try(lambda: parent.set_many(data, timeout, version), list(data), writes=made)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        parent = super()
        return self._try(lambda: parent.touch(key, timeout, version), False)

    def delete(self, key, version=None):
        parent = super()
        made = self._made([key], version)
        return self._try(lambda: parent.delete(key, version), False, writes=made)

    def delete_many(self, keys, version=None):
        parent = super()
        keys = list(keys)
        made = self._made(keys, version)
        return self._try(lambda: parent.delete_many(keys, version), None, writes=made)

    def incr(self, key, delta=1, version=None):
        parent = super()
        made = self._made([key], version)
        value = self._try(lambda: parent.incr(key, delta, version), None, writes=made)
        if value is None:  # Django's answer for a missing key
            raise ValueError(f"Key '{key}' not found")
        return value

    def clear(self):
        return self._try(lambda: super(TolerantRedisCache, self).clear(), False)
