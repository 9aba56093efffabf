"""Security headers Django does not set itself: Content-Security-Policy and
Permissions-Policy, on every response the project serves (the admin's too).

The policy (settings.CONTENT_SECURITY_POLICY) allows scripts, styles, images and fonts from
the site's own origin and nothing inline: pages load their scripts from static/js/ and their
styles from static/css/. The one exception is the 500 page, which stands alone so that it
renders whatever else is broken; its inline style block is allowed by its hash, computed
here from the template, so editing it needs no change to the policy.
"""

from __future__ import annotations

import base64
import hashlib
import re

from django.conf import settings
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.S)


def style_hashes(template_name: str) -> list[str]:
    """CSP sources for each inline <style> block of a template that has no template tags
    inside its style blocks (the 500 page)."""
    try:
        source = get_template(template_name).template.source
    except (TemplateDoesNotExist, AttributeError):
        return []
    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()}'"
        for block in STYLE_BLOCK.findall(source)
    ]


def serialize_csp(policy: dict[str, list[str]]) -> str:
    return "; ".join(" ".join([name, *sources]) for name, sources in policy.items())


def serialize_permissions(policy: dict[str, list[str]]) -> str:
    return ", ".join(f"{feature}=({' '.join(allow)})" for feature, allow in policy.items())


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        policy = {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY.items()}
        policy.setdefault("style-src", ["'self'"]).extend(style_hashes("500.html"))
        self.csp = serialize_csp(policy)
        self.permissions = serialize_permissions(settings.PERMISSIONS_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        # DEBUG's technical 404 and 500 pages are all inline script and style: they keep
        # working on a developer's machine. No such page exists without DEBUG.
        if not (settings.DEBUG and response.status_code in (404, 500)):
            response.headers.setdefault("Content-Security-Policy", self.csp)
        response.headers.setdefault("Permissions-Policy", self.permissions)
        return response
