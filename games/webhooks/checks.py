"""The webhooks' deployment check (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def check_private_addresses(app_configs, **kwargs):
    """WEBHOOK_ALLOW_PRIVATE lets any game's moderator make the site post to its own
    network (SSRF): right for the tests and a site that bridges to its own LAN alone."""
    if not getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False):
        return []
    return [
        Warning(
            "WEBHOOK_ALLOW_PRIVATE is on: a game's moderator can make the site post to "
            "private, loopback and link-local addresses, and over plain http.",
            hint="Unset WEBHOOK_ALLOW_PRIVATE unless every moderator may reach that network.",
            id="webhooks.W001",
        )
    ]
