"""A destination's secrets (a Discord or Slack webhook's address, a Matrix access token,
a generic endpoint's signing key) are stored sealed, shown once, and never again: in no
page, admin page, log record or delivery row, not even when a send fails."""

import logging

import pytest
from django.db import connection
from django.urls import reverse

from games.models import WebhookDelivery, WebhookEndpoint
from games.webhooks.secrets import unseal
from games.webhooks.services import send
from tests.factories import UserFactory
from tests.games.webhooks.conftest import tell

# Each starts HTTP servers on loopback.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

DISCORD_TOKEN = "dIsCoRdToKeN-s3cr3t-0123456789"
MATRIX_TOKEN = "syt_bWF0cml4_s3cr3tMatrixToken"


def _add(client, game, **data):
    return client.post(reverse("game_webhook_add", args=[game.pk]), data)


def _everything_stored() -> str:
    """Every column of the webhooks' tables, as the database holds them (a dump)."""
    with connection.cursor() as cursor:
        out = []
        for table in ("games_webhookendpoint", "games_webhookdelivery", "games_webhookmessage"):
            cursor.execute(f"SELECT * FROM {table}")  # noqa: S608 - our own table names
            out += [repr(row) for row in cursor.fetchall()]
    return "\n".join(out)


def test_secrets_are_shown_once_and_then_never_again(cast_game, client, serve, caplog):
    caplog.set_level(logging.DEBUG)
    discord, matrix, generic, failing = (
        serve("discord"),
        serve("matrix"),
        serve("generic"),
        serve("failing"),
    )
    matrix.secret = MATRIX_TOKEN
    client.force_login(cast_game.host)
    events = ["phase_began"]
    _add(
        client,
        cast_game,
        kind="discord",
        address=f"{discord.base}/api/webhooks/1/{DISCORD_TOKEN}",
        events=events,
    )
    _add(
        client,
        cast_game,
        kind="matrix",
        address=matrix.base,
        room="!r:example.org",
        token=MATRIX_TOKEN,
        events=events,
    )
    made = _add(client, cast_game, kind="generic", address=f"{generic.base}/in", events=events)
    _add(
        client,
        cast_game,
        kind="slack",
        address=f"{failing.base}/services/{DISCORD_TOKEN}x",
        events=events,
    )
    signing = next(unseal(e.secret_sealed) for e in WebhookEndpoint.objects.filter(kind="generic"))
    generic.secret = signing
    # Shown once: on the page that answers the creation, which no cache keeps.
    assert signing.startswith("whsec_") and signing in made.content.decode()
    assert "no-store" in made["Cache-Control"] or "no-cache" in made["Cache-Control"]

    tell(cast_game)
    send.deliveries_sweep()
    assert len(discord.posted) == len(matrix.posted) == len(generic.posted) == 1
    assert WebhookDelivery.objects.filter(status="pending").count() == 1  # the failing one

    secrets = [DISCORD_TOKEN, MATRIX_TOKEN, signing, signing.removeprefix("whsec_")]
    pages = [
        client.get(reverse("game_desk", args=[cast_game.pk])),
        client.get(reverse("game_detail", args=[cast_game.pk])),
    ]
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    pages.append(client.get(reverse("admin:games_webhookendpoint_changelist")))
    pages.append(client.get(reverse("admin:games_webhookdelivery_changelist")))
    for endpoint in WebhookEndpoint.objects.all():
        pages.append(client.get(reverse("admin:games_webhookendpoint_change", args=[endpoint.pk])))
    for delivery in WebhookDelivery.objects.all():
        pages.append(client.get(reverse("admin:games_webhookdelivery_change", args=[delivery.pk])))
    stored = _everything_stored()
    logged = "\n".join(r.getMessage() + repr(r.args) + str(r.exc_info) for r in caplog.records)
    for page in pages:
        assert page.status_code == 200
    for secret in secrets:
        for page in pages:
            assert secret not in page.content.decode(), page.request["PATH_INFO"]
        assert secret not in stored
        assert secret not in logged
    assert "/api/webhooks/1/" not in stored  # the addresses too are sealed
    desk = pages[0].content.decode()
    assert "127.0.0.1 · !r:example.org" in desk  # where each posts: the host alone


def test_a_refused_form_shows_neither_the_address_nor_the_token_again(cast_game, client):
    client.force_login(cast_game.host)
    page = _add(
        client, cast_game, kind="matrix", address=f"https://matrix.example.org/{DISCORD_TOKEN}",
        room="not a room", token=MATRIX_TOKEN, events=["phase_began"],
    )  # fmt: skip
    text = page.content.decode()
    assert "A Matrix room id looks like !abc123:example.org." in text
    assert DISCORD_TOKEN not in text and MATRIX_TOKEN not in text
    assert not WebhookEndpoint.objects.exists()


def test_the_admin_adds_a_site_wide_signed_endpoint_and_shows_its_secret_once(client, serve):
    server = serve("generic")
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    page = client.post(
        reverse("admin:games_webhookendpoint_add"),
        {"kind": "generic", "address": f"{server.base}/in", "events": ["signups_open"],
         "enabled": "on", "room": "", "language": "", "game": ""},
    )  # fmt: skip
    endpoint = WebhookEndpoint.objects.get()
    secret = unseal(endpoint.secret_sealed)
    assert endpoint.game is None and secret in page.content.decode()
    change = client.get(reverse("admin:games_webhookendpoint_change", args=[endpoint.pk]))
    assert secret not in change.content.decode()
    server.secret = secret
    tell(None, "signups_open")
    send.deliveries_sweep()
    assert len(server.posted) == 1  # signed with the secret the admin was shown
