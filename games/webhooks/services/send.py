"""The `webhooks` queue's sender: each pending, due delivery claimed, sent, recorded.

- A row is claimed by a conditional UPDATE (its `claimed_until` set, one more attempt), so
  a duplicate task or the sweep skips it, and a debounced story leaves it alone while it
  is on its way (services/deliveries.py).
- Sent: a 2xx. A timeout, a connection error, a 429 (its Retry-After honoured, seconds
  or an HTTP date) or a 5xx: tried again after a growing gap (WEBHOOK_RETRY_SECONDS,
  doubling, at most WEBHOOK_RETRY_MAX_SECONDS), given up WEBHOOK_GIVE_UP after it was
  written. Any other answer (a 3xx, a 4xx: the webhook was deleted, the token revoked)
  or a refused address fails the row at once.
- A row that fails or is given up counts against its destination; WEBHOOK_DISABLE_AFTER
  of them in a row disable it, with the reason, for the moderator's desk to show. A row
  sent clears the count.
- Each retry sends the same `message_id`: the Standard Webhooks `webhook-id` (receivers
  drop a repeat) and the Matrix transaction id (the homeserver answers a repeat with
  the first event, posting nothing), so a retry never posts twice.
"""

import http.client
import json
import logging
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from standardwebhooks import Webhook

from games.models import Notification, WebhookDelivery, WebhookEndpoint, WebhookMessage
from games.services.inbox import notifications_write

from ..narration import turned_off_words
from ..secrets import unseal
from . import net

logger = logging.getLogger(__name__)

PENDING, SENT = WebhookDelivery.Status.PENDING, WebhookDelivery.Status.SENT
FAILED, GAVE_UP = WebhookDelivery.Status.FAILED, WebhookDelivery.Status.GAVE_UP
# Longer than one send may take (each step times out after WEBHOOK_TIMEOUT).
CLAIM = timedelta(minutes=2)
SWEEP_BATCH = 100
RETRY_AFTER_MAX = timedelta(hours=1)
USER_AGENT = "Witchhunt-Webhooks/1"


class Later(Exception):
    """This try failed, the next may work: (short reason, status or None, Retry-After)."""

    def __init__(self, reason, status=None, wait=None):
        super().__init__(reason)
        self.status, self.wait = status, wait


class Failed(Exception):
    """This row will never go: (short reason, status or None)."""

    def __init__(self, reason, status=None):
        super().__init__(reason)
        self.status = status


def retry_gap(attempts: int) -> timedelta:
    seconds = settings.WEBHOOK_RETRY_SECONDS * 2 ** max(attempts - 1, 0)
    return timedelta(seconds=min(seconds, settings.WEBHOOK_RETRY_MAX_SECONDS))


def retry_after(value: str | None, now) -> timedelta | None:
    """A Retry-After header's wait (seconds, or an HTTP date), at most RETRY_AFTER_MAX."""
    if not value:
        return None
    value = value.strip()
    try:
        wait = timedelta(seconds=max(0.0, float(value)))
    except ValueError:
        try:
            at = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if at.tzinfo is None:
            at = at.replace(tzinfo=UTC)
        wait = max(at - now, timedelta(0))
    return min(wait, RETRY_AFTER_MAX)


# --- each kind's request ---------------------------------------------------------------------
def _json(payload) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def _judge(answer: net.Answer, now) -> None:
    """Raise unless `answer` is a success."""
    status = answer.status
    if 200 <= status < 300:
        return
    if status == 429:
        raise Later(
            "HTTP 429: rate limited", status, retry_after(answer.headers.get("retry-after"), now)
        )
    if status >= 500:
        raise Later(f"HTTP {status}", status)
    if 300 <= status < 400:
        raise Failed(f"HTTP {status}: redirects are not followed", status)
    raise Failed(f"HTTP {status}", status)


def _with_query(url: str, **extra) -> str:
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.update(extra)
    return urlunsplit(parts._replace(query=urlencode(query)))


def _discord(row, endpoint, address, now) -> None:
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    body = _json(row.payload)
    kept = None
    if row.replaces:
        kept = WebhookMessage.objects.filter(endpoint=endpoint, replaces=row.replaces).first()
    if kept is not None:
        parts = urlsplit(address)
        edit = urlunsplit(
            parts._replace(path=parts.path.rstrip("/") + f"/messages/{kept.message_id}")
        )
        answer = net.request("PATCH", edit, body, headers)
        if answer.status != 404:  # a message deleted in the channel: posted anew below
            _judge(answer, now)
            return
    answer = net.request("POST", _with_query(address, wait="true"), body, headers)
    _judge(answer, now)
    if row.replaces:
        try:
            message = str(json.loads(answer.body)["id"])[:64]
        except (ValueError, KeyError, TypeError):
            return
        WebhookMessage.objects.update_or_create(
            endpoint=endpoint, replaces=row.replaces, defaults={"message_id": message}
        )


def _slack(row, endpoint, address, now) -> None:
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    _judge(net.request("POST", address, _json(row.payload), headers), now)


def _matrix(row, endpoint, address, now) -> None:
    token = unseal(endpoint.secret_sealed)
    if not token:
        raise Failed("the access token cannot be read: add the room again")
    room = quote(endpoint.room, safe="")
    url = (
        address.rstrip("/")
        + f"/_matrix/client/v3/rooms/{room}/send/m.room.message/{quote(row.message_id)}"
    )
    headers = {
        "Content-Type": "application/json",
        "Authorization": f"Bearer {token}",
        "User-Agent": USER_AGENT,
    }
    _judge(net.request("PUT", url, _json(row.payload), headers), now)


def _generic(row, endpoint, address, now) -> None:
    secret = unseal(endpoint.secret_sealed)
    if not secret:
        raise Failed("the signing secret cannot be read: add the endpoint again")
    body = _json(row.payload)
    at = datetime.now(UTC)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "webhook-id": row.message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(row.message_id, at, body.decode()),
    }
    _judge(net.request("POST", address, body, headers), now)


SENDERS = {"discord": _discord, "slack": _slack, "matrix": _matrix, "generic": _generic}


# --- the rows ---------------------------------------------------------------------------------
def _claim(row, now) -> bool:
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    claimed = WebhookDelivery.objects.filter(
        free, pk=row.pk, status=PENDING, next_try_at__lte=now, endpoint__enabled=True
    ).update(claimed_until=now + CLAIM, attempts=F("attempts") + 1)
    row.attempts += 1
    return claimed == 1


def _finish(row, **fields) -> None:
    WebhookDelivery.objects.filter(pk=row.pk).update(claimed_until=None, **fields)


def _endpoint_failed(endpoint_id: int, reason: str, now) -> None:
    """One more failed row in a row; disabled at WEBHOOK_DISABLE_AFTER, once."""
    WebhookEndpoint.objects.filter(pk=endpoint_id).update(failures=F("failures") + 1)
    disabled = WebhookEndpoint.objects.filter(
        pk=endpoint_id, enabled=True, failures__gte=settings.WEBHOOK_DISABLE_AFTER
    ).update(
        enabled=False,
        disabled_at=now,
        disabled_reason=reason[:300],  # the last failure's (the desk words the rest)
    )
    if disabled:
        logger.warning("webhook endpoint %s disabled after repeated failures", endpoint_id)
        _moderator_tell(endpoint_id)


def _moderator_tell(endpoint_id: int) -> None:
    """The game's moderator is told in-site (the desk says why); a site-wide destination
    is the admins' (the admin lists it as off)."""
    endpoint = WebhookEndpoint.objects.select_related("game").get(pk=endpoint_id)
    game = endpoint.game
    if game is None:
        return
    key = f"webhook-{endpoint.pk}-{endpoint.disabled_at:%Y%m%d%H%M%S}"
    words = turned_off_words(game.title, endpoint.host)
    notifications_write(game, [(game.host_id, Notification.Kind.WEBHOOK, key, words)], once=True)


def _fail(row, status, reason, now, *, gave_up=False) -> None:
    _finish(row, status=GAVE_UP if gave_up else FAILED, last_status=status, last_error=reason[:200])
    _endpoint_failed(row.endpoint_id, reason, now)


def delivery_send(row: WebhookDelivery, now=None) -> bool:
    """Send one claimed row; True when it went."""
    now = now or timezone.now()
    endpoint = row.endpoint
    address = unseal(endpoint.address_sealed)
    try:
        if not address:
            raise Failed("the address cannot be read: add the destination again")
        SENDERS[endpoint.kind](row, endpoint, address, now)  # no transaction held over I/O
    except net.Refused as exc:
        _fail(row, None, str(exc), now)
        return False
    except Failed as exc:
        _fail(row, exc.status, str(exc), now)
        return False
    except Exception as exc:  # a timeout, a refused connection, a 5xx, a 429: later
        status = getattr(exc, "status", None)
        wait = getattr(exc, "wait", None)
        reason = str(exc) if isinstance(exc, Later) else _reason(exc)
        if not isinstance(exc, (Later, OSError, http.client.HTTPException)):
            # Not the network's: a bug of ours. Its type alone (its text might quote the
            # address); the row is tried again like any failure.
            logger.warning("webhook delivery %s: unexpected %s", row.pk, type(exc).__name__)
        gap = max(retry_gap(row.attempts), wait or timedelta(0))
        if now + gap > row.created_at + settings.WEBHOOK_GIVE_UP:
            _fail(row, status, f"given up: {reason}", now, gave_up=True)
        else:
            _finish(row, next_try_at=now + gap, last_status=status, last_error=reason[:200])
        return False
    _finish(row, status=SENT, sent_at=timezone.now(), last_status=None, last_error="")
    WebhookEndpoint.objects.filter(pk=endpoint.pk).exclude(failures=0).update(failures=0)
    return True


def _reason(exc: Exception) -> str:
    """A few words for an error, never its text (which might quote the address)."""
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, ConnectionError) and str(exc) == "the host name does not resolve":
        return str(exc)
    return f"connection failed ({type(exc).__name__})"


def deliveries_send(*, ids: list[int]) -> int:
    """Send the rows `ids` that are pending and due, oldest first; returns how many went."""
    rows = WebhookDelivery.objects.filter(pk__in=ids, status=PENDING).select_related("endpoint")
    sent = 0
    for row in rows.order_by("pk"):
        now = timezone.now()
        if _claim(row, now):
            sent += delivery_send(row, now)
    return sent


def deliveries_sweep(*, now=None) -> int:
    """The beat's sweep: forget the rows done for longer than WEBHOOK_KEEP, give up the
    rows pending past WEBHOOK_GIVE_UP, then send the due ones of enabled destinations (a
    retry, a debounced story, a lost task)."""
    now = now or timezone.now()
    WebhookDelivery.objects.exclude(status=PENDING).filter(
        created_at__lt=now - settings.WEBHOOK_KEEP
    ).delete()
    old = WebhookDelivery.objects.filter(
        status=PENDING, created_at__lt=now - settings.WEBHOOK_GIVE_UP, next_try_at__lte=now
    ).filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
    # Rows that waited out the day untried (their destination was off): given up without
    # counting against it, so turning it on again after a while does not turn it off at once.
    old.update(status=GAVE_UP, last_error="given up: not sent in time", claimed_until=None)
    due = WebhookDelivery.objects.filter(
        status=PENDING, next_try_at__lte=now, endpoint__enabled=True
    ).order_by("next_try_at")
    ids = list(due.values_list("pk", flat=True)[:SWEEP_BATCH])
    return deliveries_send(ids=ids) if ids else 0
