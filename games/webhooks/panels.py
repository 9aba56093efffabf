"""The webhooks' panel on the moderator's desk (DESK "webhooks"): the game's destinations,
where each posts (its host only), what it posts, whether it is on and why not, its
recent deliveries, and the form that adds one."""

from dataclasses import dataclass

from games import panels

from .forms import EndpointForm
from .selectors import endpoints_desk


@dataclass
class WebhooksDesk:
    endpoints: list
    form: object
    off: int  # destinations turned off after failures: the desk's notice


def webhooks_shown(*, game, values, **_):
    endpoints = endpoints_desk(game)
    form = values.get("webhook_form") or EndpointForm()
    return WebhooksDesk(endpoints, form, sum(1 for e in endpoints if not e.enabled))


def register_all() -> None:
    panels.register(panels.DESK, "webhooks", "webhooks/_desk.html", webhooks_shown)
