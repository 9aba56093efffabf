"""A secret carried in an address never reaches a log line (witchhunt/redact.py). The real
web server's access log is tried in tests/site/test_production_shape.py; here, the routes
that carry a secret, the redaction itself, and the site's own log lines in both formats."""

import json

import pytest
from django.urls import get_resolver

from tests.site.fresh_python import fresh_python
from witchhunt.redact import REDACTED, redact

# allauth's links whose `key` is a secret (our own routes name theirs `token`).
ALLAUTH_SECRET_ROUTES = {"account_reset_password_from_key", "account_confirm_email"}


def _routes():
    """(name, an address of the route, its parameters) for every named route."""
    for name, entries in get_resolver().reverse_dict.lists():
        if not isinstance(name, str):
            continue
        for possibilities, *_ in entries:
            for template, params in possibilities:
                yield name, "/" + template % {p: "x1" for p in params}, params


def _hidden(path: str) -> bool:
    return redact(path) != path


def test_every_route_that_carries_a_secret_is_redacted():
    carrying = {
        name: path
        for name, path, params in _routes()
        if "token" in params or name in ALLAUTH_SECRET_ROUTES
    }
    assert {"calendar_member_feed", "email_unsubscribe"} | ALLAUTH_SECRET_ROUTES <= set(carrying)
    assert not [name for name, path in carrying.items() if not _hidden(path)]


def test_no_other_page_is_hidden():
    """Only the secret routes (and allauth's page after a reset, which its pattern
    shares) are redacted: the logs keep saying which game, profile, rules page or
    calendar setting was asked for."""
    hidden = {name for name, path, _ in _routes() if _hidden(path)}
    assert hidden == {
        "calendar_member_feed",
        "email_unsubscribe",
        "account_reset_password_from_key",
        "account_reset_password_from_key_done",
        "account_confirm_email",
    }


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            '127.0.0.1 - - [04/Dec/2026] "GET /calendar/s3cr3t-Tok_en.ics HTTP/1.1" 200 512 "-"',
            f'127.0.0.1 - - [04/Dec/2026] "GET /calendar/{REDACTED}.ics HTTP/1.1" 200 512 "-"',
        ),
        (
            "https://witchhunt.example/email/unsubscribe/eyJ1Ijo0fQ:1v:abc/",
            f"https://witchhunt.example/email/unsubscribe/{REDACTED}/",
        ),
        (
            "Not Found: /accounts/password/reset/key/1b-cz4k9-aa11/",
            f"Not Found: /accounts/password/reset/key/{REDACTED}/",
        ),
        ("'/accounts/confirm-email/MQ:1v:xyz/'", f"'/accounts/confirm-email/{REDACTED}/'"),
        # Without its slash (a link cut short, which Django redirects): still the secret.
        ("/email/unsubscribe/eyJ1Ijo0fQ:1v:abc", f"/email/unsubscribe/{REDACTED}"),
        ("/calendar/a.ics /calendar/b.ics", f"/calendar/{REDACTED}.ics /calendar/{REDACTED}.ics"),
        # Not secrets: a game's public feed, a player's profile, the calendar settings.
        ("GET /games/12/calendar.ics HTTP/1.1", "GET /games/12/calendar.ics HTTP/1.1"),
        ("/players/abigail-42/", "/players/abigail-42/"),
        ("POST /calendar/renew/ HTTP/1.1", "POST /calendar/renew/ HTTP/1.1"),
        ("/accounts/confirm-email/", "/accounts/confirm-email/"),
    ],
)
def test_redact_hides_the_secret_and_keeps_the_rest(line, expected):
    assert redact(line) == expected


LOG_SECRETS = """
import django, logging; django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
assert client.get("/calendar/FEEDSECRET.ics").status_code == 404
assert client.get("/email/unsubscribe/MAILSECRET/").status_code == 400
try:
    raise RuntimeError("no feed at /calendar/TRACESECRET.ics")
except RuntimeError:
    logging.getLogger("games.calendar").exception("a feed failed")
logging.getLogger("games.x").warning("asked for %(path)s", {"path": "/calendar/DICTSECRET.ics"})
# runserver's request line (Django gives its logger a handler; ours replaces it)
logging.getLogger("django.server").info('"%s" %s %s', "GET /calendar/DEV.ics HTTP/1.1", 404, 9)
"""


@pytest.mark.parametrize("log_format", ["plain", "json"])
def test_the_sites_own_lines_redact_paths_arguments_and_tracebacks(log_format):
    """In a fresh Python with the settings' own logging: a 404 and a 400 on secret
    addresses (Django's lines), a traceback quoting one, and a mapping's argument."""
    result = fresh_python(LOG_SECRETS, log_format)
    assert result.returncode == 0, result.stderr
    log = result.stderr
    assert "SECRET" not in log, log
    if log_format == "json":
        lines = [json.loads(line) for line in log.splitlines()]
        messages = [line["message"] for line in lines]
        assert f"Not Found: /calendar/{REDACTED}.ics" in messages
        assert f"Bad Request: /email/unsubscribe/{REDACTED}/" in messages
        assert f"asked for /calendar/{REDACTED}.ics" in messages
        assert f'"GET /calendar/{REDACTED}.ics HTTP/1.1" 404 9' in messages  # runserver's
        (error,) = [line for line in lines if line["message"] == "a feed failed"]
        assert error["exception"].endswith(f"RuntimeError: no feed at /calendar/{REDACTED}.ics")
    else:
        assert f"Not Found: /calendar/{REDACTED}.ics" in log
        assert f"RuntimeError: no feed at /calendar/{REDACTED}.ics" in log


WORKER_SECRETS = """
import logging
from witchhunt.celery import app
import django; django.setup()
app.log.setup(loglevel="INFO")  # as `celery worker` sets its logging up
logging.getLogger("games.tasks").warning("sent %s", "/email/unsubscribe/WORKERSECRET/")
app.log.get_default_logger(name="celery.task").warning("fetched /calendar/TASKSECRET.ics")
"""


def test_a_workers_lines_are_redacted_too():
    """Celery puts handlers of its own on a worker's root and task loggers; they redact."""
    result = fresh_python(WORKER_SECRETS)
    assert result.returncode == 0, result.stderr
    log = result.stderr
    assert "SECRET" not in log, log
    assert f"sent /email/unsubscribe/{REDACTED}/" in log
    assert f"fetched /calendar/{REDACTED}.ics" in log
