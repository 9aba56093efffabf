"""The logs in a form an aggregator reads (witchhunt/logs.py): LOG_FORMAT=json writes one
JSON object per line; plain lines stay the default. Each test starts a fresh Python with
the variable set, so the settings' own logging configuration is what is tried."""

import json

from tests.site.fresh_python import fresh_python

FAILING_REQUEST = """
import django; django.setup()
from django.core import mail
from django.test import Client
from django.test.utils import override_settings
with override_settings(ROOT_URLCONF="tests.site.urls_failing",
                       ADMINS=[("Operator", "ops@example.org")]):
    for request_id in ("req-42-from-the-proxy", "not an id; rm -rf"):
        response = Client(raise_request_exception=False).get(
            "/fail/", HTTP_X_REQUEST_ID=request_id)
        assert response.status_code == 500
print(len(getattr(mail, "outbox", [])))
"""


def test_an_error_in_a_view_logs_one_json_line_with_its_traceback():
    result = fresh_python(FAILING_REQUEST, "json")
    lines = result.stderr.splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    errors = [e for e in entries if e["level"] == "ERROR"]
    assert len(errors) == 2, lines  # one line for each failing request, no more
    error = errors[0]
    assert error["logger"] == "django.request"
    assert error["message"] == "Internal Server Error: /fail/"
    assert error["exception"].startswith("Traceback (most recent call last):")
    assert error["exception"].rstrip().endswith("RuntimeError: a bug")
    assert error["request_id"] == "req-42-from-the-proxy"
    assert error["status"] == 500
    assert error["time"].endswith("+00:00")
    # A request id that is no id is replaced by one of the site's own.
    assert len(errors[1]["request_id"]) == 32 and errors[1]["request_id"].isalnum()
    # Errors go to the logs (and Sentry, scrubbed), never by email: a 500's report would
    # carry the request's form data.
    assert result.stdout.strip() == "0"


LOG_ONE = "import django, logging; django.setup(); logging.getLogger('games.x').warning('hi %s', 1)"


def test_log_format_json_is_read_from_the_environment():
    entry = json.loads(fresh_python(LOG_ONE, "json").stderr)
    assert entry["level"] == "WARNING" and entry["logger"] == "games.x"
    assert entry["message"] == "hi 1" and "request_id" not in entry


def test_plain_lines_stay_the_default_and_a_wrong_format_stops_start_up():
    assert " WARNING games.x: hi 1" in fresh_python(LOG_ONE, "").stderr
    result = fresh_python(LOG_ONE, "xml")
    assert result.returncode != 0 and "LOG_FORMAT must be one of plain, json" in result.stderr
