"""A Redis server of a test's own (/usr/bin/redis-server on a free loopback port), which the
test may stop, kill, flush and start again: the shared Redis is never touched.

Without redis-server the tests that use it skip, all with one reason; where they must run
(CI sets CI=true) they fail instead.
"""

import os
import shutil
import socket
import subprocess
import time

import pytest
import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REQUIRED = os.environ.get("CI", "") not in ("", "0", "false")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    def __init__(self, folder):
        self.folder = folder
        self.port = _free_port()
        self.process = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=1)

    def start(self) -> None:
        """Start it (again, on the same port, with what it saved if it was stopped with
        `stop(save=True)`)."""
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--dbfilename", "dump.rdb"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                if self.client().ping():
                    return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self, *, save: bool = False) -> None:
        """Shut it down (saving its data first when `save`, so `start` brings it back)."""
        try:
            self.client().shutdown(save=save, nosave=not save)
        except redis.ConnectionError:
            pass  # SHUTDOWN closes the connection
        self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


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
