"""One email to one user: its templates rendered in the user's time zone, RFC 8058
one-click unsubscribe headers, the signed unsubscribe tokens, and sending after commit.

Each email goes to one player's own address (never several in one message). Messages
leave after the transaction commits, so an email never announces a change that rolled
back, and a failing mail server loses the email (logged) but never the game. Every email
carries one-click unsubscribe headers for its preference; the link holds a signed token
naming the user and the preference (django.core.signing).
"""

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User

logger = logging.getLogger(__name__)

# The preferences a link may turn off: token name -> User field and what it is called.
PREFERENCES = {
    "reminders": ("email_deadline_reminders", "deadline reminders"),
    "phases": ("email_phase_changes", "phase-change and game-start emails"),
    "mentions": ("email_mentions", "mention and quote emails"),
    "wagons": ("wagon_alerts", "wagon alerts"),
    "digest": ("email_digest", "daily digests"),
}
UNSUBSCRIBE_SALT = "games.emails.unsubscribe"


# --- unsubscribe tokens ----------------------------------------------------------------
def unsubscribe_token(user, preference: str) -> str:
    """A signed token naming the user and the preference; it does not expire, as RFC 8058
    expects one-click links in old emails to keep working."""
    if preference not in PREFERENCES:
        raise ValueError(f"unknown email preference {preference!r}")
    return signing.dumps({"u": user.pk, "p": preference}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_read(token: str):
    """(user, preference) for a valid token, else None (tampered, or the user is gone)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("p") not in PREFERENCES:
        return None
    user = User.objects.filter(pk=data.get("u")).first()
    return (user, data["p"]) if user is not None else None


# --- building and sending --------------------------------------------------------------
def absolute_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_url(game) -> str:
    return absolute_url(reverse("game_detail", args=[game.pk]))


def role_url(game) -> str:
    return absolute_url(reverse("game_role", args=[game.pk]))


def message_build(user, template, context, preference):
    """One email to one user, rendered in the user's time zone, with RFC 8058 headers."""
    unsubscribe_url = absolute_url(
        reverse("email_unsubscribe", args=[unsubscribe_token(user, preference)])
    )
    context = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe_url,
        "preference_label": PREFERENCES[preference][1],
        "profile_url": absolute_url(reverse("profile")),
        # A player on UTC needs each time once, not twice.
        "on_utc": user.zoneinfo.key in ("UTC", "Etc/UTC"),
    }
    with timezone.override(user.zoneinfo):
        subject = render_to_string(f"email/{template}_subject.txt", context)
        text = render_to_string(f"email/{template}.txt", context)
        html = render_to_string(f"email/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=settings.EMAIL_SUBJECT_PREFIX + " ".join(subject.split()),
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no auto-replies, please
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def deliver(messages):
    try:
        with get_connection() as connection:
            connection.send_messages(messages)
    except Exception:  # the game goes on; the rows say these were attempted
        logger.exception("could not send %d game emails", len(messages))


def send_after_commit(messages):
    if messages:
        transaction.on_commit(lambda: deliver(messages))
