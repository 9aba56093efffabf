"""Sentry, when SENTRY_DSN is set (settings/base.py): errors of the web and of the Celery
workers, with nothing of a game in them.

An error's context is where hidden information hides: a view's local variables hold
cards, a request's body holds a post, its query string and cookies what a player typed,
an exception's message may quote any of them, and the breadcrumbs hold the log lines and
the SQL parameters of the request. So what is sent is built from an allowlist
(`scrub`): the exception's type and its stack (file, function, line and the source
around it, no variables), the log line's template (its arguments left out), the route's
pattern (`/games/<id:game_id>/desk/`, never the address), the request's method, the
breadcrumbs' kinds and times, and where it ran. Nothing else leaves the server; the
message and the traceback with its values stay in the site's own logs.

sentry-sdk is an optional dependency (`pip install '.[sentry]'`): a DSN set without it
stops start-up rather than silently sending nothing.
"""

from django.core.exceptions import ImproperlyConfigured

TOP = ("event_id", "timestamp", "level", "platform", "logger", "server_name", "release",
       "environment", "sdk", "transaction", "fingerprint")  # fmt: skip
CONTEXTS = ("runtime", "os", "trace")
FRAME = ("filename", "abs_path", "module", "function", "lineno", "colno", "in_app",
         "pre_context", "context_line", "post_context")  # fmt: skip
BREADCRUMB = ("type", "category", "level", "timestamp")


def _frames(stacktrace: dict | None) -> dict | None:
    if not stacktrace:
        return None
    return {"frames": [_pick(frame, FRAME) for frame in stacktrace.get("frames", [])]}


def _pick(source: dict, keys) -> dict:
    return {key: source[key] for key in keys if key in source}


def scrub(event: dict, hint: dict | None = None) -> dict:
    """The event as sent: only what the module's docstring lists."""
    out = _pick(event, TOP)
    out["tags"] = {k: str(v) for k, v in (event.get("tags") or {}).items()
                   if k in ("celery_task_name", "status_code")}  # fmt: skip
    out["contexts"] = {
        name: _pick(context, ("name", "version", "type", "trace_id", "span_id", "op"))
        for name, context in (event.get("contexts") or {}).items()
        if name in CONTEXTS and isinstance(context, dict)
    }
    if event.get("exception"):
        out["exception"] = {
            "values": [
                {
                    **_pick(value, ("type", "module", "mechanism")),
                    "value": "",  # the message may quote a card or a post: logs only
                    "stacktrace": _frames(value.get("stacktrace")),
                }
                for value in event["exception"].get("values", [])
            ]
        }
    logentry = event.get("logentry") or {}
    if logentry.get("message"):
        out["logentry"] = {"message": str(logentry["message"])}  # the template, no arguments
    request = event.get("request") or {}
    if request.get("method"):
        out["request"] = {"method": request["method"]}
    crumbs = (event.get("breadcrumbs") or {}).get("values", [])
    out["breadcrumbs"] = {"values": [_pick(crumb, BREADCRUMB) for crumb in crumbs]}
    return out


def sentry_init(dsn: str, *, environment: str = "production") -> None:
    try:
        import sentry_sdk
        from sentry_sdk.integrations.celery import CeleryIntegration
        from sentry_sdk.integrations.django import DjangoIntegration
    except ImportError:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install '.[sentry]'."
        ) from None
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(transaction_style="url"), CeleryIntegration()],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub,
        # Errors only: no performance traces (their spans would carry SQL and addresses).
        traces_sample_rate=None,
    )
