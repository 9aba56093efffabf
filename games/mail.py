"""One email to one user: its templates rendered in the user's language and time zone, RFC 8058
one-click unsubscribe headers, the signed unsubscribe tokens, and the outbox it is written to.

Each email goes to one player's own address (never several in one message). It is
written to the outbox (GameEmail, one row per recipient email) in the same transaction as
what keeps it to once; the phase, role, reminder and wagon emails are rendered before that
transaction, apart from the game row's lock (services/emails.py). Once it commits, the
`email` queue sends each row on its own (games/services/outbox.py), so an email never
announces a change that rolled back, a mail server that is down delays the email (tried
again with growing gaps) but never loses it nor holds up the game, and an address the
server refuses skips only itself. Every email carries one-click unsubscribe headers for
its preference; the link holds a signed token naming the user and the preference
(django.core.signing).
"""

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from accounts.language import in_language_of
from accounts.mail import message_to_data
from accounts.models import User

from .models import GameEmail
from .queue import after_commit

# The preferences a link may turn off: token name -> User field and what it is called.
# The names are worded when an email or the unsubscribe page is rendered, in its reader's
# language ("You get these deadline reminders because…", "Stop sending daily digests…").
PREFERENCES = {
    "reminders": ("email_deadline_reminders", pgettext_lazy("emails", "deadline reminders")),
    "phases": (
        "email_phase_changes",
        pgettext_lazy("emails", "phase-change and game-start emails"),
    ),
    "mentions": ("email_mentions", pgettext_lazy("emails", "mention and quote emails")),
    "results": ("email_results", pgettext_lazy("emails", "result emails")),
    "wagons": ("wagon_alerts", pgettext_lazy("emails", "wagon alerts")),
    "digest": ("email_digest", pgettext_lazy("emails", "daily digests")),
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
    """One email to one user, rendered in the user's language (accounts/language.py: the
    worker has no browser to follow) and time zone, with RFC 8058 headers. Lazy words in
    `context` (gettext_lazy, accounts.language.lazy_words) are worded here too."""
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
    with in_language_of(user), timezone.override(user.zoneinfo):
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
    # What the outbox's row needs beside the message itself (outbox_write).
    message.recipient, message.game, message.template = user, context.get("game"), template
    return message


def outbox_write(messages, expires_at=None) -> list[int]:
    """Write `messages` (message_build's) to the outbox, pending; returns the rows' ids.
    `expires_at`: the moment after which they would say something no longer true."""
    now = timezone.now()
    rows = GameEmail.objects.bulk_create(
        GameEmail(
            user=m.recipient,
            game=m.game,
            template=m.template,
            message=message_to_data(m),
            next_try_at=now,
            expires_at=expires_at,
        )
        for m in messages
    )
    return [row.pk for row in rows]


def send_after_commit(messages, *, expires_at=None):
    """Write `messages` to the outbox in this transaction; the `email` queue sends them
    once it commits (the `emails_send` task; the email sweep catches whatever that misses),
    never after `expires_at` (a reminder's deadline)."""
    if messages:
        after_commit("emails_send", outbox_write(messages, expires_at))
