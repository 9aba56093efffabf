"""Web push's writes: a browser's subscription kept or forgotten, a member's push choices,
and a notification sent to each of a member's browsers (pywebpush: VAPID, aes128gcm).

A notification says which kind of news waits in which game and the page that shows it,
nothing more (narration.told_words): the push service and anyone who reads the lock
screen learn no card, result or post. The endpoint is an address a browser gave us, so
it is checked like any address the site is asked to call: https, and never a private,
loopback or link-local host unless WEBPUSH_ALLOW_PRIVATE_ENDPOINTS says so (a test's
stand-in push service on 127.0.0.1); no redirect is followed.
"""

import base64
import binascii
import ipaddress
import json
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from pywebpush import WebPushException, webpush

from accounts.language import in_language_of
from accounts.models import User
from games.engine import GameRuleError
from games.models import Game, PushChoice, PushSubscription
from games.queue import TOLD_KINDS

from . import keys
from .narration import SITE, told_words

logger = logging.getLogger(__name__)

# A member's browsers: more than anyone uses, few enough that a told member costs little.
MAX_SUBSCRIPTIONS = 10
# How long a push service keeps a message for a browser that is off (seconds), and how
# soon it should wake a phone for it (RFC 8030 Urgency): a deadline is worth waking for.
TTL = {"role": 86400, "result": 86400, "reminder": 3600, "mention": 86400, "replacement": 21600}
URGENCY = {"reminder": "high", "role": "normal", "result": "normal"}
TIMEOUT = 10  # seconds for one push service to answer
# Each page a kind of news is read on (the member's own: the role page is theirs).
PAGES = {
    "role": "game_role",
    "result": "game_role",
    "reminder": "game_role",
    "mention": "notifications",
    "replacement": "replacement_list",
}

SENT, GONE, FAILED = "sent", "gone", "failed"


# --- a browser's subscription --------------------------------------------------------------
def _b64(text: str, size: int) -> bytes | None:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == size else None


def is_public_address(host: str) -> bool:
    """Whether every address `host` resolves to is a public one (no private, loopback,
    link-local or reserved range): the site calls no address inside its own network."""
    try:
        infos = socket.getaddrinfo(host, None)
    except (socket.gaierror, UnicodeError):
        return False
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global or address.is_multicast:
            return False
    return bool(infos)


def endpoint_refusal(endpoint: str) -> str | None:
    """Why the site will not send to `endpoint`, in the member's words; None when it will."""
    parts = urlsplit(endpoint)
    allow_private = settings.WEBPUSH_ALLOW_PRIVATE_ENDPOINTS
    if parts.scheme != "https" and not (allow_private and parts.scheme == "http"):
        return _("Your browser gave a push address we cannot use (it must be https).")
    if not parts.hostname or (not allow_private and not is_public_address(parts.hostname)):
        return _("Your browser gave a push address we cannot reach.")
    return None


def subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> PushSubscription:
    """Keep a browser's subscription for `user` (a browser subscribing again, or moving to
    another member on the same computer, updates its row). Raises GameRuleError, writing
    nothing, for a subscription we cannot send to."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1000:
        raise GameRuleError(_("Your browser gave a push address we cannot use."))
    refusal = endpoint_refusal(endpoint)
    if refusal:
        raise GameRuleError(refusal)
    point = _b64(p256dh, 65) if isinstance(p256dh, str) else None
    secret = _b64(auth, 16) if isinstance(auth, str) else None
    if point is None or point[0] != 4 or secret is None:  # an uncompressed P-256 point
        raise GameRuleError(_("Your browser gave push keys we cannot use."))
    with transaction.atomic():
        mine = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
        if mine.count() >= MAX_SUBSCRIPTIONS:
            raise GameRuleError(
                ngettext(
                    "Notifications are on in %(count)d browser already: turn it off first.",
                    "Notifications are on in %(count)d browsers already: turn one off first.",
                    MAX_SUBSCRIPTIONS,
                )
                % {"count": MAX_SUBSCRIPTIONS}
            )
        row, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": label[:100],
                      "failures": 0},
        )  # fmt: skip
    return row


def subscription_remove(*, user: User, endpoint: str | None = None, pk: int | None = None) -> int:
    """Forget one of `user`'s browsers, by its endpoint or its row; returns how many."""
    rows = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        rows = rows.filter(endpoint=endpoint)
    elif pk is not None:
        rows = rows.filter(pk=pk)
    else:
        return 0
    return rows.delete()[0]


# --- a member's push choices -----------------------------------------------------------------
def choices_save(*, user: User, wanted: set[str]) -> None:
    """Push for the kinds in `wanted`, none for the others."""
    with transaction.atomic():
        for kind in TOLD_KINDS:
            PushChoice.objects.update_or_create(
                user=user, kind=kind, defaults={"push": kind in wanted}
            )


def is_wanted(user_id: int, kind: str) -> bool:
    return not PushChoice.objects.filter(user_id=user_id, kind=kind, push=False).exists()


# --- sending -------------------------------------------------------------------------------
def payload(user: User, game: Game, kind: str) -> str:
    """The notification: the kind of news, the game and the page to open, in `user`'s
    language. Made of what the member may see now and nothing else."""
    with in_language_of(user):
        body = told_words(kind, game.title)
    page = PAGES[kind]
    url = reverse(page, args=[game.pk]) if page == "game_role" else reverse(page)
    message = {"title": SITE, "body": body, "url": url, "tag": f"{kind}-{game.pk}"}
    return json.dumps(message, ensure_ascii=False, sort_keys=True)


@dataclass
class Sent:
    sent: int = 0
    gone: int = 0
    retry: tuple = ()  # the subscriptions to try again: (pk, ...)
    data: str = ""  # what was sent, for those tries


def member_told_push(*, user_id: int, game_id: int, kind: str) -> Sent:
    """MEMBER_TOLD's push, after the commit: the notification to each of the member's
    browsers, when they want this kind by push."""
    if not keys.is_enabled() or kind not in TOLD_KINDS:
        return Sent()
    subscriptions = list(PushSubscription.objects.filter(user_id=user_id))
    if not subscriptions or not is_wanted(user_id, kind):
        return Sent()
    user = User.objects.filter(pk=user_id).first()
    game = Game.objects.filter(pk=game_id).first()
    if user is None or game is None:
        return Sent()
    data = payload(user, game, kind)
    outcome = Sent(data=data)
    retry = []
    for subscription in subscriptions:
        result = deliver(subscription, data, kind)
        outcome.sent += result == SENT
        outcome.gone += result == GONE
        if result == FAILED:
            retry.append(subscription.pk)
    outcome.retry = tuple(retry)
    return outcome


def deliver_again(*, subscription_id: int, data: str, kind: str) -> str:
    """A notification tried again (its first try failed)."""
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return GONE
    return deliver(subscription, data, kind)


def _session() -> requests.Session:
    session = requests.Session()
    session.max_redirects = 0  # a push service answers; it does not send us elsewhere
    session.trust_env = False  # nor through a proxy the environment names
    return session


def deliver(subscription: PushSubscription, data: str, kind: str) -> str:
    """Send `data` to one browser: SENT, GONE (the push service no longer knows it: its
    row is removed) or FAILED (tried again later by the caller). The endpoint is never
    logged: its path is the browser's secret address."""
    where = urlsplit(subscription.endpoint).hostname
    if endpoint_refusal(subscription.endpoint):
        logger.warning("push subscription %s refused (host %s)", subscription.pk, where)
        subscription.delete()
        return GONE
    try:
        webpush(
            {"endpoint": subscription.endpoint,
             "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            data=data,
            vapid_private_key=keys.signer(),
            vapid_claims={"sub": settings.WEBPUSH_CONTACT},
            content_encoding="aes128gcm",
            ttl=TTL.get(kind, 3600),
            headers={"Urgency": URGENCY.get(kind, "normal")},
            timeout=TIMEOUT,
            requests_session=_session(),
        )  # fmt: skip
    except WebPushException as e:
        status = e.response.status_code if e.response is not None else None
        if status in (404, 410):
            logger.info("push subscription %s gone (%s from %s)", subscription.pk, status, where)
            subscription.delete()
            return GONE
        return _failed(subscription, f"{status} from {where}")
    except requests.RequestException as e:
        return _failed(subscription, f"{type(e).__name__} from {where}")
    PushSubscription.objects.filter(pk=subscription.pk).update(
        last_success_at=timezone.now(), failures=0
    )
    return SENT


def _failed(subscription: PushSubscription, why: str) -> str:
    logger.warning("push to subscription %s failed: %s", subscription.pk, why)
    PushSubscription.objects.filter(pk=subscription.pk).update(failures=subscription.failures + 1)
    return FAILED


# --- a member leaving --------------------------------------------------------------------------
def member_erased(*, user, **_) -> None:
    PushSubscription.objects.filter(user=user).delete()
    PushChoice.objects.filter(user=user).delete()


def member_export_part(data: dict, *, user, **_) -> dict:
    data["push"] = {
        "browsers": [
            {"label": s.label, "created_at": s.created_at, "last_success_at": s.last_success_at}
            for s in PushSubscription.objects.filter(user=user)
        ],
        "choices": {c.kind: c.push for c in PushChoice.objects.filter(user=user)},
    }
    return data
