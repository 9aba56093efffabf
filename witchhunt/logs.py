"""The logs: plain lines for a person (the default), or one JSON object per line for a log
aggregator (LOG_FORMAT=json): time, level, logger, message, the exception's traceback and
the request's id when there is one.

The request id is the X-Request-ID header a proxy in front may set (letters, digits and
dashes, up to 64), else one made here; every line logged while the request is served
carries it, so one request's lines can be found together.
"""

import contextvars
import json
import logging
import re
import uuid
from datetime import UTC, datetime

from django.core.exceptions import ImproperlyConfigured

FORMATS = ("plain", "json")
REQUEST_ID = re.compile(r"[A-Za-z0-9-]{1,64}")
_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    return _request_id.get()


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (a traceback's newlines are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:  # exc_text: the traceback as redacted (witchhunt/redact.py)
            entry["exception"] = record.exc_text or self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        request_id = current_request_id()
        if request_id:
            entry["request_id"] = request_id
        status = getattr(record, "status_code", None)
        if isinstance(status, int):
            entry["status"] = status
        return json.dumps(entry, default=str)


class RequestIdMiddleware:
    """Names each request for the logs (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        token = _request_id.set(given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex)
        try:
            return self.get_response(request)
        finally:
            _request_id.reset(token)


def logging_config(log_format: str) -> dict:
    """settings.LOGGING for LOG_FORMAT: everything to the console (stderr), INFO and up."""
    if log_format not in FORMATS:
        raise ImproperlyConfigured(f"LOG_FORMAT must be one of {', '.join(FORMATS)}.")
    formatters = {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
        "json": {"()": "witchhunt.logs.JsonFormatter"},
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {log_format: formatters[log_format]},
        # A secret in an address (a calendar feed's, an unsubscribe link's) never printed.
        "filters": {"redact": {"()": "witchhunt.redact.RedactFilter"}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": ["redact"],
            }
        },
        "root": {"handlers": ["console"], "level": "INFO"},
        "loggers": {
            # Django's own handlers off: its errors reach the console once, through the
            # root, and never the admins by email (a 500's report holds the request's
            # form data: a post's text). Errors go to the logs and to Sentry (scrubbed).
            "django": {"handlers": [], "level": "INFO", "propagate": True},
            # runserver already prints this line itself.
            "django.utils.autoreload": {"level": "WARNING"},
        },
    }
