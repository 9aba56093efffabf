"""The outbox's sender: every game email is a GameEmail row (games/mail.py writes it in the
transaction that decides it), sent here after the commit, each on its own over one
connection to the mail server.

- A row is claimed before it is sent (its `next_try_at` moved past the send by a
  conditional UPDATE), so a duplicate task or the sweep skips it; it is marked sent only
  once the server accepted it, so a retry never sends twice what was accepted. (A worker
  that dies between the server's "250" and that UPDATE leaves the row to be sent again
  when its claim lapses: the one window where an email may go twice.)
- A transient failure (the server down or not answering, a 4xx, a dropped connection) is
  recorded on the row and pushed back by a growing gap (GAME_EMAIL_RETRY_SECONDS,
  doubling, at most GAME_EMAIL_RETRY_MAX_SECONDS); the email sweep (the beat's
  `email_sweep`, every 30 s on the `email` queue) sends the rows that are due again.
  A row still pending after EMAIL_GIVE_UP is given up (failed, logged); a reminder, a
  prod or a wagon alert still pending at the deadline it speaks of expires unsent.
- An address the server refuses outright (a 5xx for that recipient) skips only itself:
  that row is refused, and the member's address is marked refused (User.email_refused_*),
  so no more game emails are tried to it until they ask to try again on their profile
  page (`email_try_again`) or change their address. The moderator's desk names the
  players whose emails are not reaching them (selectors/desk.py).
"""

import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import get_connection
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.mail import message_from_data
from accounts.models import User

from ..models import GameEmail
from ..queue import after_commit

logger = logging.getLogger(__name__)

PENDING, SENT = GameEmail.Status.PENDING, GameEmail.Status.SENT
REFUSED, FAILED = GameEmail.Status.REFUSED, GameEmail.Status.FAILED
EXPIRED = GameEmail.Status.EXPIRED
# A claimed row is left alone this long: far longer than one send may take (each SMTP step
# times out after EMAIL_TIMEOUT), so no rival sends it meanwhile.
CLAIM = timedelta(minutes=5)
# Given up after this long (and refused emails are sent again on "try again" if younger).
EMAIL_GIVE_UP = timedelta(days=3)
SWEEP_BATCH = 200  # rows a sweep sends at most; the next sweep takes the rest
REPLY_MAX = 300  # GameEmail.last_error, User.email_refused_reply


def retry_gap(tries: int) -> timedelta:
    """The pause after the `tries`th failed try: the first setting, doubling each time."""
    seconds = settings.GAME_EMAIL_RETRY_SECONDS * 2 ** max(tries - 1, 0)
    return timedelta(seconds=min(seconds, settings.GAME_EMAIL_RETRY_MAX_SECONDS))


def _reply(code, text) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return f"{code} {' '.join(str(text).split())}"[:REPLY_MAX]


def _outcome(exc: Exception, address: str) -> tuple[str, str]:
    """What a failed send means: (outcome, the server's reply), outcome one of "refused"
    (this address, for good), "failed" (this message, for good), "later" (this row, tried
    again; the connection is fine) or "down" (the connection is gone: try the rest later)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        recipients = exc.recipients or {}
        code, text = recipients.get(address) or next(iter(recipients.values()), (0, ""))
        return ("refused" if 500 <= code < 600 else "later"), _reply(code, text)
    if isinstance(exc, smtplib.SMTPDataError):
        code = exc.smtp_code
        return ("failed" if 500 <= code < 600 else "later"), _reply(code, exc.smtp_error)
    if isinstance(exc, (smtplib.SMTPException, OSError)):
        # Down, not answering, a dropped connection, a refused sender (our configuration):
        # the next try may work; nothing is the recipient's fault.
        return "down", _reply(type(exc).__name__, exc)
    # Anything else is this row's own (a message that cannot be built or encoded): trying
    # it again would fail again, and hold up every email behind it.
    return "failed", _reply(type(exc).__name__, exc)


def _claim(row: GameEmail, now) -> bool:
    claimed = GameEmail.objects.filter(pk=row.pk, status=PENDING, next_try_at__lte=now).update(
        next_try_at=now + CLAIM, tries=F("tries") + 1
    )
    row.tries += 1
    return claimed == 1


def _finish(row: GameEmail, status: str, error: str = "", **fields) -> None:
    GameEmail.objects.filter(pk=row.pk, status=PENDING).update(
        status=status, last_error=error[:REPLY_MAX], **fields
    )


def _push_back(rows, error: str, now, tries: int, unclaimed: bool = False) -> None:
    """Try `rows` again after the gap that follows `tries` failed tries. `unclaimed`: rows
    this run has not claimed, left alone if a rival sender has (its claim stands)."""
    rows = GameEmail.objects.filter(pk__in=[r.pk for r in rows], status=PENDING)
    if unclaimed:
        rows = rows.filter(next_try_at__lte=now)
    rows.update(next_try_at=now + retry_gap(tries), last_error=error[:REPLY_MAX])


def _address_refuse(user: User, address: str, reply: str, now) -> None:
    """Hold the game emails to `address` (if it is still the member's)."""
    User.objects.filter(pk=user.pk, email=address).update(
        email_refused_at=now, email_refused_to=address, email_refused_reply=reply
    )
    logger.warning("the mail server refused the address of user %s: %s", user.pk, reply)


class _Server:
    """One connection to the mail server for a run of sends, opened at the first. Once it
    has served, a connection that drops (the server's idle timeout) is opened again, once
    for an email, before the email counts as failed."""

    def __init__(self):
        self.connection = None
        self.served = False

    def send(self, message) -> int:
        try:
            return self._send(message)
        except Exception as exc:
            if not self.served or _outcome(exc, "")[0] != "down":
                raise
            self.close()
            return self._send(message)

    def _send(self, message) -> int:
        if self.connection is None:
            self.connection = get_connection(fail_silently=False)
            self.connection.open()
        accepted = self.connection.send_messages([message])
        self.served = True
        return accepted

    def close(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:  # what was sent is recorded; a broken goodbye changes nothing
                logger.warning("could not close the mail server's connection", exc_info=True)


def emails_send(*, ids: list[int]) -> int:
    """Send the outbox's rows `ids` that are pending and due, in order, each on its own
    over one connection; returns how many the server accepted. A row is sent to its
    member's current address."""
    rows = list(
        GameEmail.objects.filter(pk__in=ids, status=PENDING).select_related("user").order_by("pk")
    )
    held = {}  # user id -> their address, refused in this run
    server = _Server()
    sent = 0
    try:
        for i, row in enumerate(rows):
            now = timezone.now()
            if not _claim(row, now):
                continue  # sent, or claimed by a rival sender, or not due yet
            if row.expires_at is not None and row.expires_at <= now:
                _finish(row, EXPIRED, "not sent: its moment passed while it waited", message={})
                continue
            user, address = row.user, row.user.email
            if user.email_refused or held.get(user.pk) == address:
                _finish(row, REFUSED, "not tried: the address was refused before")
                continue
            try:
                message = message_from_data(row.message)
                message.to = [address]
                accepted = server.send(message)
            except Exception as exc:
                outcome, reply = _outcome(exc, address)
                if outcome == "refused":
                    _finish(row, REFUSED, reply)
                    _address_refuse(user, address, reply, now)
                    held[user.pk] = address
                elif outcome == "failed":
                    _finish(row, FAILED, reply)
                    logger.warning(
                        "game email %s failed for good: %s", row.pk, reply, exc_info=True
                    )
                elif outcome == "later":
                    _push_back([row], reply, now, row.tries)
                else:  # the server is down or went away: the rest waits as long
                    logger.warning("game emails wait for the mail server: %s", reply)
                    _push_back([row], reply, now, row.tries)
                    _push_back(rows[i + 1 :], reply, now, row.tries, unclaimed=True)
                    break
                continue
            if accepted:
                # The text goes once it is in the member's mailbox (a role email's holds
                # their cards); the row stays, small, as the record of the delivery.
                _finish(row, SENT, sent_at=timezone.now(), message={})
                sent += 1
            else:  # nothing to send it to (no address)
                _finish(row, FAILED, "no recipient")
    finally:
        server.close()
    return sent


def emails_sweep(*, now=None) -> int:
    """The beat's email sweep: send the pending rows that are due (a retry after a
    transient failure, or a row whose task never ran), oldest first; give up those pending
    for longer than EMAIL_GIVE_UP. Returns how many the server accepted."""
    now = now or timezone.now()
    given_up = GameEmail.objects.filter(status=PENDING, created_at__lt=now - EMAIL_GIVE_UP)
    given_up = given_up.filter(next_try_at__lte=now).update(
        status=FAILED, last_error=f"given up after {EMAIL_GIVE_UP.days} days"
    )
    if given_up:
        logger.error("%d game emails given up: the mail server never took them", given_up)
    due = GameEmail.objects.filter(status=PENDING, next_try_at__lte=now).order_by("next_try_at")
    ids = list(due.values_list("pk", flat=True)[:SWEEP_BATCH])
    return emails_send(ids=ids) if ids else 0


@transaction.atomic
def email_try_again(*, user: User) -> int:
    """The member asks to try their address again (the profile page): the hold ends, and
    the game emails refused or held in the last EMAIL_GIVE_UP go out again, to their
    current address. Returns how many."""
    User.objects.filter(pk=user.pk).update(
        email_refused_at=None, email_refused_to="", email_refused_reply=""
    )
    user.email_refused_at, user.email_refused_to, user.email_refused_reply = None, "", ""
    since = timezone.now() - EMAIL_GIVE_UP
    refused = GameEmail.objects.filter(user=user, status=REFUSED, created_at__gte=since)
    ids = list(refused.values_list("pk", flat=True))
    if ids:
        GameEmail.objects.filter(pk__in=ids).update(
            status=PENDING, next_try_at=timezone.now(), tries=0, last_error=""
        )
        after_commit("emails_send", ids)
    return len(ids)
