"""allauth's per-address rate limits count the visitor's address. Behind the TLS proxy that
is the one X-Forwarded-For names, and only a request from the proxy may name it."""

import pytest
from allauth.account.adapter import get_adapter
from django.test import RequestFactory, override_settings
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PROXY = "172.30.253.10"
behind_the_proxy = override_settings(TRUSTED_PROXIES=[PROXY])


def _address(remote_addr, forwarded=None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    request = RequestFactory().get("/", REMOTE_ADDR=remote_addr, **headers)
    return get_adapter(request).get_client_ip(request)


@behind_the_proxy
@pytest.mark.parametrize(
    ("remote_addr", "forwarded", "expected"),
    [
        # Straight from the internet: the header is the visitor's own say-so.
        ("203.0.113.5", "198.51.100.7", "203.0.113.5"),
        ("203.0.113.5", PROXY, "203.0.113.5"),
        ("2001:db8::5", "198.51.100.7", "2001:db8::5"),
        # From the proxy: the address it saw, read from the right.
        (PROXY, "198.51.100.7", "198.51.100.7"),
        (PROXY, "10.9.9.9, 198.51.100.7", "198.51.100.7"),  # the left part is the client's
        (PROXY, " 2001:db8::7 ", "2001:db8::7"),
        (PROXY, "::ffff:198.51.100.7", "198.51.100.7"),
        # From the proxy without a usable header (its own health checks): the proxy.
        (PROXY, None, PROXY),
        (PROXY, "", PROXY),
        (PROXY, "not-an-address", PROXY),
    ],
)
def test_the_client_address_trusts_the_header_only_from_the_proxy(remote_addr, forwarded, expected):
    assert _address(remote_addr, forwarded) == expected


def test_without_a_configured_proxy_the_header_is_never_read():
    assert _address("203.0.113.5", "198.51.100.7") == "203.0.113.5"
    assert _address(PROXY, "198.51.100.7") == PROXY


@override_settings(TRUSTED_PROXIES=["172.30.253.0/29"])
def test_proxies_may_be_a_network():
    assert _address("172.30.253.3", "198.51.100.7") == "198.51.100.7"
    assert _address("172.30.253.9", "198.51.100.7") == "172.30.253.9"


def _fail_login(client, n, **headers):
    # A different account each time: only the per-address limit (10 a minute) counts.
    return client.post(
        reverse("account_login"), {"login": f"nobody{n}@example.com", "password": "wrong"},
        **headers,
    )  # fmt: skip


def _log_in(client, member, **headers):
    return client.post(
        reverse("account_login"), {"login": member.email, "password": DEFAULT_PASSWORD}, **headers
    )


TOO_MANY = "Too many failed login attempts"


@behind_the_proxy
def test_behind_the_proxy_two_visitors_have_separate_limits(client):
    member = UserFactory()
    alice = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    bob = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.8"}
    for n in range(10):
        _fail_login(client, n, **alice)
    assert TOO_MANY in _fail_login(client, 10, **alice).content.decode()

    response = _log_in(client, member, **bob)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(member.pk)


@behind_the_proxy
def test_a_forged_header_from_elsewhere_does_not_escape_the_limit(client):
    member = UserFactory()
    for n in range(10):
        _fail_login(client, n, REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")

    response = _log_in(
        client, member, REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="198.51.100.200"
    )

    assert TOO_MANY in response.content.decode()
    assert "_auth_user_id" not in client.session
