"""A Redis server of a test's own (/usr/bin/redis-server on a free loopback port), which the
test may stop, kill, flush and start again: the shared Redis is never touched.

Without redis-server the tests that use it skip, all with one reason; where they must run
(CI sets CI=true) they fail instead.
"""

import os

import pytest

from tests.stack import REDIS_SERVER, PrivateRedis

REQUIRED = os.environ.get("CI", "") not in ("", "0", "false")


@pytest.fixture
def private_redis(tmp_path):
    if not os.path.exists(REDIS_SERVER):
        message = f"needs {REDIS_SERVER} (Debian's redis-server) to stop and start a Redis"
        if REQUIRED:
            pytest.fail(f"{message}; CI is set: these tests must run", pytrace=False)
        pytest.skip(message)
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.close()
