"""The desk's reads: a game's destinations, each with its recent deliveries."""

from dataclasses import dataclass

from django.db.models import Prefetch

from games.models import WebhookDelivery, WebhookEndpoint

from .narration import event_label

RECENT = 5


@dataclass
class DeliveryShown:
    event: str
    status: str
    attempts: int
    at: object
    error: str


@dataclass
class EndpointShown:
    pk: int
    kind: str
    host: str  # never the path, never a token
    room: str
    events: list
    mentions: bool
    enabled: bool
    disabled_reason: str
    disabled_at: object
    deliveries: list


def endpoints_desk(game) -> list[EndpointShown]:
    """Two queries: the destinations, then the last RECENT deliveries of each."""
    recent = WebhookDelivery.objects.order_by("-pk")[:RECENT]  # a window per destination
    endpoints = WebhookEndpoint.objects.filter(game=game).prefetch_related(
        Prefetch("deliveries", queryset=recent, to_attr="shown")
    )
    out = []
    for e in endpoints:
        out.append(
            EndpointShown(
                pk=e.pk, kind=e.get_kind_display(), host=e.host, room=e.room,
                events=[event_label(x) for x in e.events], mentions=e.mentions,
                enabled=e.enabled, disabled_reason=e.disabled_reason,
                disabled_at=e.disabled_at,
                deliveries=[
                    DeliveryShown(
                        event_label(d.event), d.get_status_display(), d.attempts,
                        d.sent_at or d.created_at, d.last_error,
                    )
                    for d in e.shown[:RECENT]
                ],
            )
        )  # fmt: skip
    return out
