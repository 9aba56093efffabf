"""The desk's webhooks: the moderator lists, adds, tests, turns on and removes the game's
destinations; a player, a stranger or a visitor gets a 404 and changes nothing."""

import pytest
from django.urls import reverse

from games.models import WebhookDelivery, WebhookEndpoint
from games.webhooks.services import send
from tests.factories import UserFactory
from tests.games.webhooks.conftest import destination

pytestmark = pytest.mark.django_db


def _urls(game, endpoint):
    return [
        reverse("game_webhook_add", args=[game.pk]),
        reverse("game_webhook_remove", args=[game.pk, endpoint.pk]),
        reverse("game_webhook_enable", args=[game.pk, endpoint.pk]),
        reverse("game_webhook_test", args=[game.pk, endpoint.pk]),
    ]


@pytest.mark.slow  # starts an HTTP server on loopback
@pytest.mark.parametrize("who", ["player", "stranger", "visitor"])
def test_only_the_moderator_may_touch_the_game_s_webhooks(
    cast_game, cast_users, serve, client, who
):
    server = serve("slack")
    endpoint = destination(cast_game, server)
    if who == "player":
        client.force_login(cast_users["ann"])
    elif who == "stranger":
        client.force_login(UserFactory())
    data = {"kind": "slack", "address": f"{server.base}/x", "events": ["game_started"]}
    for url in _urls(cast_game, endpoint):
        answer = client.post(url, data)
        assert answer.status_code == (302 if who == "visitor" else 404), url
    assert client.get(reverse("game_desk", args=[cast_game.pk])).status_code in (302, 404)
    assert list(WebhookEndpoint.objects.values_list("pk", flat=True)) == [endpoint.pk]
    assert WebhookEndpoint.objects.get().enabled and not WebhookDelivery.objects.exists()


@pytest.mark.slow  # starts an HTTP server on loopback
def test_another_game_s_destination_is_not_the_moderator_s_to_touch(
    cast_game, moderator, cast_users, serve, client
):
    from tests.games.conftest import make_game

    other_host = UserFactory()
    other = make_game(other_host, cast_users, start=False, title="Elsewhere")
    theirs = destination(other, serve("slack"))
    client.force_login(moderator)
    for url in _urls(cast_game, theirs)[1:]:
        client.post(url)
    assert WebhookEndpoint.objects.filter(pk=theirs.pk).exists()
    assert not WebhookDelivery.objects.exists()


@pytest.mark.slow  # starts an HTTP server on loopback
def test_the_moderator_adds_tests_and_removes_a_destination(cast_game, serve, client):
    server = serve("discord")
    client.force_login(cast_game.host)
    desk = reverse("game_desk", args=[cast_game.pk])
    page = client.get(desk).content.decode()
    assert "Chat and webhooks" in page and "No destination yet." in page

    answer = client.post(
        reverse("game_webhook_add", args=[cast_game.pk]),
        {
            "kind": "discord",
            "address": f"{server.base}/api/webhooks/9/tok",
            "events": ["phase_began", "game_ended"],
        },
    )
    assert answer.status_code == 302
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.events == ["phase_began", "game_ended"] and not endpoint.mentions

    client.post(reverse("game_webhook_test", args=[cast_game.pk, endpoint.pk]))
    send.deliveries_sweep()
    [posted] = server.posted
    assert posted["embeds"][0]["title"] == "The named cast · a test from the moderator’s desk"
    page = client.get(desk).content.decode()
    assert "Discord · 127.0.0.1" in page
    assert "A test" in page and "sent" in page  # the recent deliveries

    client.post(reverse("game_webhook_remove", args=[cast_game.pk, endpoint.pk]))
    assert not WebhookEndpoint.objects.exists()


def test_a_refused_destination_says_why_and_writes_nothing(cast_game, client):
    client.force_login(cast_game.host)
    page = client.post(
        reverse("game_webhook_add", args=[cast_game.pk]),
        {"kind": "slack", "address": "https://hooks.slack.com/services/x", "events": []},
    )
    assert page.status_code == 200
    assert "What to post: This field is required." in page.content.decode()
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.slow  # starts an HTTP server on loopback
def test_a_turned_off_destination_is_not_tested(cast_game, client, serve):
    endpoint = destination(cast_game, serve("slack"))
    WebhookEndpoint.objects.update(enabled=False, disabled_reason="HTTP 404")
    client.force_login(cast_game.host)
    page = client.post(reverse("game_webhook_test", args=[cast_game.pk, endpoint.pk]))
    assert "Turn the destination on again before testing it." in page.content.decode()
    assert not WebhookDelivery.objects.exists()


def test_the_desk_of_an_open_game_offers_the_destinations_too(moderator, cast_users, client):
    from tests.games.conftest import make_game

    game = make_game(moderator, cast_users, start=False)
    client.force_login(moderator)
    assert "Add a destination" in client.get(reverse("game_desk", args=[game.pk])).content.decode()


@pytest.mark.slow  # starts an HTTP server on loopback
def test_the_desk_s_webhooks_cost_two_queries_however_many_deliveries(
    cast_game, serve, django_assert_num_queries
):
    from games.webhooks.selectors import RECENT, endpoints_desk
    from tests.games.webhooks.conftest import tell

    server = serve("slack")
    for _ in range(3):
        destination(cast_game, server)
    for _ in range(RECENT + 3):
        tell(cast_game)
    with django_assert_num_queries(2):
        shown = endpoints_desk(cast_game)
    assert [len(e.deliveries) for e in shown] == [RECENT] * 3


def test_a_destination_added_on_the_desk_speaks_the_moderator_s_language(cast_game, client):
    cast_game.host.language = "de"
    cast_game.host.save()
    client.force_login(cast_game.host)
    client.post(
        reverse("game_webhook_add", args=[cast_game.pk]),
        {
            "kind": "slack",
            "address": "https://hooks.slack.com/services/T/B/x",
            "events": ["game_ended"],
        },
    )
    assert WebhookEndpoint.objects.get().language == "de"
