"""allauth's emails name the site ("Witchhunt"), never the address the request came to."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-unusual-passphrase"
# The address `make run` serves on: the request's host, which allauth would call the site.
LOCAL_HOST = "127.0.0.1:8000"


def _without_links(body: str) -> str:
    return re.sub(r"https?://\S+", "<link>", body)


def test_the_sign_up_email_names_the_site(client, worker):
    with worker():
        client.post(
            reverse("account_signup"),
            {
                "email": "ada@example.com",
                "player_name": "Ada_99",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
            HTTP_HOST=LOCAL_HOST,
        )

    [message] = mail.outbox
    assert message.subject == "[Witchhunt] Please Confirm Your Email Address"
    body = message.body
    assert body.startswith("Hello from Witchhunt!")
    assert "Welcome, Ada_99! To finish signing up for Witchhunt, confirm" in body
    assert f"http://{LOCAL_HOST}/accounts/confirm-email/" in body  # the link still works
    words = _without_links(body)
    assert LOCAL_HOST not in words and "127.0.0.1" not in words
    assert words.rstrip().endswith("— Witchhunt")


def test_the_password_reset_email_names_the_site(client, worker):
    member = UserFactory(player_name="Martha")
    with worker():
        client.post(
            reverse("account_reset_password"), {"email": member.email}, HTTP_HOST=LOCAL_HOST
        )

    [message] = mail.outbox
    assert message.subject.startswith("[Witchhunt] ")
    words = _without_links(message.body)
    assert words.startswith("Hello from Witchhunt!")
    assert LOCAL_HOST not in words and "127.0.0.1" not in words
