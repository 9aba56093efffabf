"""Sentry sends no card and no post text (witchhunt/sentry.py): a real sentry-sdk client,
its DSN pointed at an HTTP server on loopback that keeps what it is sent, and a view that
fails with a card and a post's text everywhere an error's context can pick them up: its
local variables, the request's body, query string and cookies, the exception's message,
a log line and an SQL query's parameters."""

import gzip
import logging
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection
from django.test import Client
from django.urls import path

sentry_sdk = pytest.importorskip("sentry_sdk")  # the dev extra installs it

from witchhunt.sentry import sentry_init  # noqa: E402

CARD = "Summoner"
POST = "Psst, I am the Blacksmith: lynch Cat tomorrow"


def fail(request, game_id):
    card, text = request.GET.get("card", CARD), request.POST.get("body", POST)
    logging.getLogger("games.example").info("resolving %s for %s", card, text)
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s, %s", [card, text])
    raise RuntimeError(f"the night failed for the {card}: {text}")


urlpatterns = [path("games/<int:game_id>/fail/", fail)]


class Sink(BaseHTTPRequestHandler):
    bodies: list[bytes] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        assert self.headers.get("Content-Encoding") in (None, "gzip"), self.headers
        Sink.bodies.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def sentry_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Sink.bodies = []
    sentry_init(f"http://publickey@127.0.0.1:{server.server_port}/1", environment="test")
    yield Sink.bodies
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # an inactive client again for the other tests
    server.shutdown()
    server.server_close()


@pytest.mark.django_db
def test_sentry_gets_the_error_with_no_card_and_no_post_text(sentry_server, settings):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    client.cookies["draft"] = POST
    response = client.post(
        f"/games/7/fail/?card={CARD}&seat=ann", {"body": POST, "note": CARD}, HTTP_X_NOTE=CARD
    )
    assert response.status_code == 500
    sentry_sdk.flush(timeout=5)
    sent = b"\n".join(sentry_server).decode()
    # It did arrive, and says where it failed: the type, our frame, the route's pattern.
    assert '"RuntimeError"' in sent and '"fail"' in sent
    assert "games/<int:game_id>/fail/" in sent
    for secret in (CARD, POST, "Blacksmith", "lynch Cat"):
        assert secret.lower() not in sent.lower(), secret


def test_a_dsn_without_sentry_sdk_stops_start_up():
    """SENTRY_DSN set and the package missing: the settings refuse to load, in words."""
    code = "import sys; sys.modules['sentry_sdk'] = None\nimport django; django.setup()"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"DJANGO_SETTINGS_MODULE": "witchhunt.settings.test",
             "SENTRY_DSN": "http://key@127.0.0.1:9/1", "PATH": "/usr/bin:/bin"},  # fmt: skip
        capture_output=True, text=True, check=False, cwd=settings_root(),
    )  # fmt: skip
    assert result.returncode != 0
    assert "sentry-sdk is not installed" in result.stderr


def test_a_dsn_turns_sentry_on_with_the_scrub():
    code = (
        "import django; django.setup()\n"
        "import sentry_sdk; from witchhunt.sentry import scrub\n"
        "client = sentry_sdk.get_client()\n"
        "assert client.is_active(), 'inactive'\n"
        "assert client.options['before_send'] is scrub\n"
        "assert client.options['send_default_pii'] is False\n"
        "assert {'django', 'celery'} <= set(client.integrations), client.integrations\n"
        "print('on')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"DJANGO_SETTINGS_MODULE": "witchhunt.settings.test",
             "SENTRY_DSN": "http://key@127.0.0.1:9/1", "PATH": "/usr/bin:/bin"},  # fmt: skip
        capture_output=True, text=True, check=False, cwd=settings_root(),
    )  # fmt: skip
    assert result.stdout.strip() == "on", result.stderr


def settings_root():
    from django.conf import settings

    return settings.BASE_DIR
