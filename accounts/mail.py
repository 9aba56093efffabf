"""Account emails go out through the Celery worker (accounts/tasks.py).

The message is rendered in the request, where allauth has what its links need, and handed
to the broker as plain data once the transaction commits, so a sign-up that rolls back
sends nothing. The worker sends it and, while the mail server is down or refuses, tries
again with growing pauses; the page never waits on the mail server. If every try fails,
the member asks again: signing in with an unverified address sends a new link.

What the worker's logs and monitoring show of the task is a fixed label: the message
holds a sign-in link, which belongs in the member's mailbox only.
"""

from __future__ import annotations

import logging
from typing import NamedTuple
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction

logger = logging.getLogger(__name__)

ARGS_LABEL = "(an account email)"
# How the account emails name the site (the game emails sign "— Witchhunt" too).
SITE_NAME = "Witchhunt"


class SiteIdentity(NamedTuple):
    """What allauth's templates read of `current_site`."""

    name: str
    domain: str


def site_identity() -> SiteIdentity:
    """The site by its name, with SITE_URL's host as its domain (allauth's own templates
    would print the domain; the project's, in templates/account/email/, name the site)."""
    return SiteIdentity(SITE_NAME, urlsplit(settings.SITE_URL).netloc)


def message_to_data(message: EmailMessage) -> dict:
    return {
        "subject": message.subject,
        "body": message.body,
        "content_subtype": message.content_subtype,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "alternatives": [
            [content, mimetype] for content, mimetype in getattr(message, "alternatives", [])
        ],
    }


def message_from_data(data: dict) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )
    message.content_subtype = data["content_subtype"]
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message


def queue_email(message: EmailMessage) -> None:
    """Send `message` from the worker once the current transaction commits."""
    data = message_to_data(message)
    transaction.on_commit(lambda: _enqueue(data))


def _enqueue(data: dict) -> None:
    from .tasks import send_account_email

    try:
        send_account_email.apply_async((data,), argsrepr=ARGS_LABEL)
    except Exception:  # the write has committed; the broker may be down
        logger.exception("could not queue an account email to %d recipient(s)", len(data["to"]))
