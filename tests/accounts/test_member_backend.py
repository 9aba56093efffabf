"""The member backend (accounts/backends.py): allauth's sign-in, whose sessions find the
member again with their moderation read in the same row (tests/games/test_moderation_grant.py
has the game page's side)."""

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import override_settings
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

MEMBER_BACKEND = "accounts.backends.MemberBackend"


class CountingHasher(MD5PasswordHasher):
    """The tests' hasher, counting the passwords it hashes (each a real hasher's time)."""

    algorithm = "md5"  # the stored hashes stay readable
    hashed = 0

    def encode(self, password, salt):
        CountingHasher.hashed += 1
        return super().encode(password, salt)


def test_a_password_sign_in_is_the_member_backends(client):
    member = UserFactory()
    client.post(reverse("account_login"), {"login": member.email, "password": DEFAULT_PASSWORD})
    assert client.session["_auth_user_id"] == str(member.pk)
    assert client.session["_auth_user_backend"] == MEMBER_BACKEND


@pytest.mark.parametrize("known", [True, False], ids=["wrong password", "unknown address"])
def test_a_refused_sign_in_hashes_the_password_once(client, known):
    """The backends kept for older sessions do not check the same password again."""
    email = UserFactory().email if known else "nobody@example.com"
    with override_settings(PASSWORD_HASHERS=[f"{__name__}.CountingHasher"]):
        CountingHasher.hashed = 0
        response = client.post(reverse("account_login"), {"login": email, "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert CountingHasher.hashed == 1


def test_an_inactive_members_session_finds_nobody(client):
    member = UserFactory()
    client.force_login(member)
    type(member).objects.filter(pk=member.pk).update(is_active=False)
    response = client.get(reverse("account_email"))
    assert response.status_code == 302  # sent to sign in
