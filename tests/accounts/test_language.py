"""Choosing a language (accounts/language.py): the browser's on a first visit, the
footer's switcher for a visitor, then a member's own choice (profile, sign-up), which wins
over the browser on every page; the page's lang attribute follows."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory


def _lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


@pytest.mark.django_db
def test_a_first_visit_follows_the_browser():
    assert _lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")) == "de"
    assert _lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="en-GB")) == "en"
    # A language the site does not have: English, the site's own.
    assert _lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="fr")) == "en"


@pytest.mark.django_db
def test_the_switcher_keeps_a_visitors_choice_over_the_browser():
    client = Client()
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'name="language"' in page.content.decode()  # the footer's form
    # The form names no page: the browser's Referer (same origin) brings the reader back.
    assert 'name="next"' not in page.content.decode()
    response = client.post(
        reverse("set_language"), {"language": "de"}, HTTP_REFERER="http://testserver/rules/"
    )
    assert response.status_code == 302 and response["Location"] == "http://testserver/rules/"
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "de"


@pytest.mark.django_db
def test_the_switcher_refuses_a_language_the_site_does_not_have():
    client = Client()
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "en"


@pytest.mark.django_db
def test_a_members_language_wins_over_the_browser_on_every_page(client):
    member = UserFactory(language="de")
    client.force_login(member)
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "de"
    assert _lang(client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="en")) == "de"
    member.language = ""
    member.save()
    # Blank: the browser again.
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "en"


@pytest.mark.django_db
def test_a_member_who_switches_keeps_the_switch(client):
    member = UserFactory(language="de")
    client.force_login(member)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    member.refresh_from_db()
    assert member.language == "en"
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "en"


@pytest.mark.django_db
def test_the_profile_saves_the_language_and_refuses_an_unknown_one(client):
    member = UserFactory(time_zone="UTC")
    client.force_login(member)
    form = {"time_zone": "UTC", "email_deadline_reminders": "on", "email_phase_changes": "on"}
    page = client.get(reverse("profile")).content.decode()
    assert 'name="language"' in page and ">Deutsch</option>" in page
    client.post(reverse("profile"), {**form, "language": "de"})
    member.refresh_from_db()
    assert member.language == "de"
    response = client.post(reverse("profile"), {**form, "language": "xx"})
    assert response.status_code == 200  # the form again, with its error
    member.refresh_from_db()
    assert member.language == "de"  # refused input changes nothing
    client.post(reverse("profile"), {**form, "language": ""})
    member.refresh_from_db()
    assert member.language == ""


@pytest.mark.django_db
def test_sign_up_offers_the_language_starting_with_the_pages_and_keeps_it():
    client = Client()
    page = client.get(reverse("account_signup"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert re.search(r'<option value="de"[^>]*selected', page)
    client.post(
        reverse("account_signup"),
        {
            "email": "new@example.com",
            "player_name": "Newcomer",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
            "time_zone": "UTC",
            "language": "de",
        },
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert User.objects.get(email="new@example.com").language == "de"


@pytest.mark.django_db
def test_the_pages_after_sign_up_follow_the_language_chosen_on_the_form():
    """Nobody is signed in until the address is confirmed: the form's choice is kept in
    the language cookie, so the next page is German for a browser set to English."""
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {
            "email": "neu@example.com",
            "player_name": "Neuling",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
            "time_zone": "UTC",
            "language": "de",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.cookies["django_language"].value == "de"
    assert _lang(client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")) == "de"


def test_the_scripts_catalog_is_the_pages_language(client):
    german = client.get(reverse("javascript_catalog", args=["de"]))
    assert german.status_code == 200 and "django.gettext" in german.content.decode()
    assert "max-age" in german["Cache-Control"]
    assert client.get("/jsi18n/xx/").status_code == 404
