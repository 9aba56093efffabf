"""Content-Security-Policy and Permissions-Policy on every page, and templates that need
nothing the policy forbids: no inline script, no inline event handler, no inline style."""

import base64
import hashlib
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# Emails are read in mail clients, not under the site's policy; they need inline styles.
EMAIL_TEMPLATES = TEMPLATES / "email"
WEB_EMAIL_PAGES = {"unsubscribe_confirm.html", "unsubscribe_done.html", "unsubscribe_invalid.html"}


def _policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in directives, f"{name} given twice"
        directives[name] = sources
    return directives


def _assert_strict(policy):
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert "'unsafe-inline'" not in policy["style-src"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]


@pytest.mark.parametrize(
    "url",
    ["home", "game_list", "rules", "account_login", "account_signup", "account_reset_password"],
)
def test_pages_for_visitors_carry_a_strict_policy(client, url):
    response = client.get(reverse(url))
    assert response.status_code == 200
    _assert_strict(_policy(response))
    permissions = response.headers["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions


def test_pages_for_members_and_redirects_and_404s_carry_it_too(client):
    member = UserFactory()
    client.force_login(member)
    for response in (
        client.get(reverse("profile")),
        client.get(reverse("game_new")),  # 403 for a member who may not host
        client.get("/no-such-page/"),
        client.post(reverse("account_logout")),
    ):
        _assert_strict(_policy(response))
        assert "Permissions-Policy" in response.headers


def test_the_admin_works_under_the_same_policy(client):
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    for url in (
        reverse("admin:index"),
        reverse("admin:accounts_user_changelist"),
        reverse("admin:accounts_user_change", args=[admin.pk]),
        reverse("admin:games_game_changelist"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        _assert_strict(_policy(response))
        html = response.content.decode()
        assert not _inline_scripts(html), url  # the admin's own scripts are all files


def test_the_500_page_keeps_its_own_styles():
    client = Client(raise_request_exception=False)
    with override_settings(ROOT_URLCONF="tests.site.urls_failing"):
        response = client.get("/fail/")
    assert response.status_code == 500
    policy = _policy(response)
    _assert_strict(policy)
    html = response.content.decode()
    styles = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert styles, "the 500 page stands alone with an inline style block"
    for style in styles:
        digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy["style-src"]


# --- the templates ----------------------------------------------------------------------------
def _inline_scripts(html: str) -> list[str]:
    """<script> elements that run inline code: without src, and not a JSON data block."""
    found = []
    for attrs in re.findall(r"<script\b([^>]*)>", html, re.I):
        if re.search(r"\bsrc\s*=", attrs, re.I):
            continue
        if re.search(r"""type\s*=\s*["']application/(?:ld\+)?json["']""", attrs, re.I):
            continue
        found.append(attrs)
    return found


def _web_templates():
    for path in sorted(TEMPLATES.rglob("*.html")):
        if path.is_relative_to(EMAIL_TEMPLATES) and path.name not in WEB_EMAIL_PAGES:
            continue
        yield path


def test_there_are_templates_to_check():
    names = {path.name for path in _web_templates()}
    assert {"base.html", "game_detail.html", "_deadline.html"} <= names
    assert "phase.html" not in names  # an email


@pytest.mark.parametrize(
    "path", list(_web_templates()), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_needs_inline_script_handlers_or_styles(path):
    source = path.read_text()
    assert not _inline_scripts(source), "move the script into static/js/"
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", source, re.I), "inline event handler"
    assert "javascript:" not in source.lower()
    assert not re.search(r"<[a-z][^>]*\sstyle\s*=", source, re.I), "inline style attribute"
    if path.name != "500.html":  # stands alone; its style block is allowed by its hash
        assert "<style" not in source.lower()
