"""Deployment checks of the project's own (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def check_trusted_proxies(app_configs, **kwargs):
    """Behind a TLS proxy (SECURE_PROXY_SSL_HEADER) every request comes from the proxy:
    without TRUSTED_PROXIES, allauth's per-address rate limits count one address for all,
    and a few failed sign-ins lock everyone out."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and not getattr(
        settings, "TRUSTED_PROXIES", None
    ):
        return [
            Warning(
                "TRUSTED_PROXIES is empty although a TLS proxy is in front "
                "(SECURE_PROXY_SSL_HEADER): rate limits per address will count the "
                "proxy's address for every visitor.",
                hint="Set TRUSTED_PROXIES to the proxy's address, e.g. 172.30.253.10.",
                id="witchhunt.W001",
            )
        ]
    return []
