"""A game's destinations, as its moderator sets them on the desk: added (the secret made
and shown once), removed, turned on again, tested. A refusal is a GameRuleError in the
moderator's words and writes nothing."""

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from games.engine import GameRuleError
from games.models import WebhookEndpoint

from .. import story as stories
from ..secrets import seal, signing_secret_new
from . import net
from .deliveries import delivery_test, quiet_forget

KINDS = WebhookEndpoint.Kind


def host_checked(address: str) -> str:
    """The host of an address the site may post to, or a refusal in words."""
    try:
        parts = urlsplit(address.strip())
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        host = None
    allow_private = settings.WEBHOOK_ALLOW_PRIVATE
    if not host or parts.scheme not in ("https", "http"):
        raise GameRuleError(gettext("the address must be an https:// address"))
    if parts.scheme == "http" and not allow_private:
        raise GameRuleError(gettext("the address must be an https:// address"))
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not allow_private and not net.is_public(literal):
        raise GameRuleError(gettext("the site does not post to private or local addresses"))
    if len(host) > 255:
        raise GameRuleError(gettext("the address is too long"))
    return host


@transaction.atomic
def endpoint_add(
    *, game, user, kind: str, address: str, room: str = "", token: str = "", events=(),
    mentions: bool = False, language: str = "",
) -> tuple[WebhookEndpoint, str]:  # fmt: skip
    """A new destination; returns it and the secret to show once ("" for none shown:
    a Discord or Slack address is the moderator's own)."""
    if kind not in KINDS.values:
        raise GameRuleError(gettext("choose Discord, Slack, Matrix or a signed HTTPS endpoint"))
    events = [e for e in stories.EVENTS if e in set(events)]
    if not events:
        raise GameRuleError(gettext("choose at least one event to post"))
    address = address.strip()
    host = host_checked(address)
    secret, shown = "", ""
    if kind == KINDS.MATRIX:
        room, token = room.strip(), token.strip()
        if not room.startswith("!") or ":" not in room:
            raise GameRuleError(gettext("a Matrix room id looks like !abc123:example.org"))
        if not token:
            raise GameRuleError(gettext("the Matrix access token is missing"))
        secret = token
    else:
        room = ""
    if kind == KINDS.GENERIC:
        secret = shown = signing_secret_new()
    endpoint = WebhookEndpoint.objects.create(
        game=game,
        kind=kind,
        host=host,
        address_sealed=seal(address),
        room=room,
        secret_sealed=seal(secret),
        events=events,
        mentions=bool(mentions),
        language=language,
        created_by=user,
    )
    return endpoint, shown


def _endpoint_of(game, pk) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.filter(game=game, pk=pk).first()
    if endpoint is None:
        raise GameRuleError(gettext("that destination is gone"))
    return endpoint


@transaction.atomic
def endpoint_remove(*, game, pk) -> None:
    _endpoint_of(game, pk).delete()


@transaction.atomic
def endpoint_enable(*, game, pk) -> WebhookEndpoint:
    """On again, its count of failures cleared; the rows that waited go at the next sweep."""
    endpoint = _endpoint_of(game, pk)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        enabled=True, disabled_reason="", disabled_at=None, failures=0
    )
    quiet_forget(game.pk)  # an UPDATE sends no signal: "no destination" is forgotten here
    return endpoint


@transaction.atomic
def endpoint_test(*, game, pk, build) -> int:
    """The desk's "send a test": one delivery to this destination alone."""
    endpoint = _endpoint_of(game, pk)
    if not endpoint.enabled:
        raise GameRuleError(gettext("turn the destination on again before testing it"))
    return delivery_test(endpoint=endpoint, build=build)[0]
