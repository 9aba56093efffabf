"""Secrets that travel in an address never reach a log line.

A member's calendar feed (`/calendar/<token>.ics`), an email's unsubscribe link and
allauth's password-reset and confirm-email links carry their secret in the path, and
whoever holds the address holds the secret. Access logs print every path (and the
Referer, which names the page a request came from), and Django logs the path of a 404 and
of a 500. So each log line is redacted on its way out: wherever an address of
`settings.SECRET_PATHS` appears, its `<secret>` (one segment: no slash, space, quote, `?`
or `#`) becomes `[redacted]`, and the rest of the line stays. The site's own log lines are
redacted by `RedactFilter` (on the console handler, witchhunt/logs.py), gunicorn's access
log by witchhunt/access_log.py.
"""

import logging
import re
from functools import cache

from django.conf import settings

REDACTED = "[redacted]"
SECRET = r"[^/\s\"'?#]+"


@cache
def _pattern(templates: tuple[str, ...]) -> re.Pattern:
    """One alternative a template: the secret, after its fixed prefix, before its suffix
    (a slash or nothing needs no look: the secret's segment ends there anyway)."""
    alternatives = []
    for template in templates:
        prefix, _, suffix = template.partition("<secret>")
        ahead = f"(?={re.escape(suffix)})" if suffix not in ("", "/") else ""
        alternatives.append(f"(?<={re.escape(prefix)}){SECRET}{ahead}")
    return re.compile("|".join(alternatives))


def redact(text: str) -> str:
    """`text` with the secret of every secret address in it replaced."""
    return _pattern(tuple(settings.SECRET_PATHS)).sub(REDACTED, text)


class RedactFilter(logging.Filter):
    """Redacts a record's template, its string arguments (Django's "Not Found: %s",
    runserver's request line) and its traceback, each on its own: the template stays a
    template, which is all Sentry is sent of it (witchhunt/sentry.py)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        elif isinstance(args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
        if record.exc_info and not record.exc_text:  # the formatters print exc_text
            record.exc_text = redact(_FORMATTER.formatException(record.exc_info))
        return True


_FORMATTER = logging.Formatter()
