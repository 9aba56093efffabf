"""The sender posts only to public addresses (SSRF): every address a host resolves to is
checked, the connection goes to the one checked, plain http and private, loopback,
link-local or reserved addresses are refused unless the operator allows them
(WEBHOOK_ALLOW_PRIVATE); the desk refuses such an address in words, writing nothing."""

import socket

import pytest
from django.urls import reverse

from games.models import WebhookDelivery, WebhookEndpoint
from games.webhooks.services import net, send
from tests.games.webhooks.conftest import destination, tell


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
        "0.0.0.0", "224.0.0.1", "240.0.0.1", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)  # fmt: skip
def test_private_loopback_link_local_and_reserved_addresses_are_not_public(address):
    assert not net.is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "162.159.135.232", "2606:4700::6810:84e5"])
def test_public_addresses_are(address):
    assert net.is_public(address)


@pytest.mark.slow  # starts an HTTP server on loopback
@pytest.mark.django_db
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_loopback_destination_is_refused_when_the_operator_does_not_allow_it(
    cast_game, serve, settings, host
):
    server = serve("slack")
    endpoint = destination(cast_game, server)
    settings.WEBHOOK_ALLOW_PRIVATE = False
    # https, so only the address is in question (the server never gets that far anyway).
    from games.webhooks.secrets import seal

    endpoint.address_sealed = seal(f"https://{host}:{server.port}/hooks/x")
    endpoint.save()
    tell(cast_game)
    send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "failed"
    assert row.last_error == "refused: the host is a private or reserved address"
    assert server.requests == []


@pytest.mark.slow  # starts an HTTP server on loopback
@pytest.mark.django_db
def test_plain_http_is_refused_when_the_operator_does_not_allow_private_addresses(
    cast_game, serve, settings
):
    server = serve("slack")
    destination(cast_game, server)
    settings.WEBHOOK_ALLOW_PRIVATE = False
    tell(cast_game)
    send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and row.last_error == "refused: not an https address"
    assert server.requests == []


def _resolving(monkeypatch, table):
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in table:
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in table[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_a_host_with_one_private_address_among_public_ones_is_refused(monkeypatch, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    _resolving(monkeypatch, {"hooks.example": ["93.184.216.34", "10.0.0.7"]})
    with pytest.raises(net.Refused):
        net.addresses_checked("hooks.example", 443)
    _resolving(monkeypatch, {"hooks.example": ["93.184.216.34"]})
    assert net.addresses_checked("hooks.example", 443) == ["93.184.216.34"]


@pytest.mark.slow  # starts an HTTP server on loopback
def test_the_connection_goes_to_the_address_checked_with_the_host_s_name(
    monkeypatch, serve, settings
):
    """Resolved once: the request reaches the address that was checked, naming the host
    (a second DNS answer, which could point elsewhere, is never asked for)."""
    server = serve("slack")
    answers = iter([["127.0.0.1"], ["10.9.9.9"]])  # a rebinding DNS: another answer next time
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "hooks.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in next(answers)]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    answer = net.request("POST", f"http://hooks.example:{server.port}/x", b"{}", {})
    assert answer.status == 200
    assert server.requests[0].headers["Host"] == f"hooks.example:{server.port}"


PRIVATE = "The site does not post to private or local addresses."
HTTPS = "The address must be an https:// address."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("https://169.254.169.254/latest/meta-data", PRIVATE),
        ("https://[::1]/hooks", PRIVATE),
        ("http://discord.com/api/webhooks/1/x", HTTPS),
        ("ftp://example.org/x", HTTPS),
        ("not an address", HTTPS),
    ],
)  # fmt: skip
def test_the_desk_refuses_an_address_it_will_not_post_to_and_writes_nothing(
    cast_game, client, settings, address, words
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    client.force_login(cast_game.host)
    page = client.post(
        reverse("game_webhook_add", args=[cast_game.pk]),
        {"kind": "discord", "address": address, "events": ["game_started"]},
    )
    assert page.status_code == 200
    assert words in page.content.decode()
    assert not WebhookEndpoint.objects.exists()
    assert address not in page.content.decode()  # what was typed is not echoed back


def test_the_deploy_check_warns_while_private_addresses_are_allowed(settings):
    from games.webhooks.checks import check_private_addresses

    settings.WEBHOOK_ALLOW_PRIVATE = False
    assert check_private_addresses(None) == []
    settings.WEBHOOK_ALLOW_PRIVATE = True
    [warning] = check_private_addresses(None)
    assert warning.id == "webhooks.W001"
