import re

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.views.defaults import permission_denied, server_error

pytestmark = pytest.mark.django_db


def _nav(html: str) -> str:
    match = re.search(r'<nav class="site-nav" aria-label="Main">(.*?)</nav>', html, re.S)
    assert match, "main navigation missing"
    return match.group(1)


def test_home_page_has_skip_link_and_visitor_navigation(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<a class="skip-link" href="#main">' in html
    assert '<main id="main"' in html
    nav = _nav(html)
    for label, url in [
        ("Games", reverse("game_list")),
        ("Rules", reverse("rules")),
        ("Sign in", reverse("account_login")),
    ]:
        assert f'href="{url}"' in nav and label in nav
    assert "Profile" not in nav


def test_navigation_for_a_member_offers_profile_and_sign_out(client, member):
    client.force_login(member)
    nav = _nav(client.get(reverse("home")).content.decode())

    assert f'href="{reverse("profile")}"' in nav
    assert f'action="{reverse("account_logout")}"' in nav  # sign-out is a POST, not a link
    assert "Sign in" not in nav


def test_current_page_marked_in_navigation(client):
    nav = _nav(client.get(reverse("rules")).content.decode())
    assert f'<a href="{reverse("rules")}" aria-current="page">Rules</a>' in nav


@pytest.mark.parametrize("name", ["game_list", "rules"])
def test_nav_pages_are_open_to_visitors(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert "Coming soon" not in response.content.decode()


def test_rules_marked_current_on_every_rules_page(client):
    url = reverse("rules_card", args=["witchhunt", "priest"])
    nav = _nav(client.get(url).content.decode())
    assert f'<a href="{reverse("rules")}" aria-current="page">Rules</a>' in nav


def test_allauth_pages_use_the_site_shell(client):
    html = client.get(reverse("account_login")).content.decode()
    assert '<a class="skip-link" href="#main">' in html
    assert 'class="form"' in html
    assert '<label for="id_login">' in html


def test_styles_served_locally_and_nothing_from_other_hosts(client):
    html = client.get(reverse("home")).content.decode()
    assert finders.find("css/site.css")
    assert 'href="/static/css/site.css"' in html
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html)


def test_unknown_address_gets_the_site_404_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
    assert "skip-link" in response.content.decode()


def test_403_page_renders(rf):
    request = rf.get("/secret/")
    response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()


def test_csrf_failure_explains_the_expired_form():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("account_login"), {"login": "x@example.com", "password": "x"})
    assert response.status_code == 403
    assert "That form has expired" in response.content.decode()


def test_500_page_renders_without_context(rf):
    response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
