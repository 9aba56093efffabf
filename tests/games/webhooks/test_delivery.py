"""A story reaches each kind of destination in its own shape, over real HTTP on
loopback: Discord's embed, Slack's blocks, Matrix's m.notice, and a generic body whose
Standard Webhooks signature the server verifies."""

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import WebhookDelivery, WebhookMessage
from games.webhooks.services import send
from tests.games.webhooks.conftest import destination, tell

# Each starts HTTP servers on loopback.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_a_story_reaches_discord_slack_matrix_and_a_signed_endpoint(
    cast_game, serve, eager_tasks, django_capture_on_commit_callbacks
):
    servers = {kind: serve(kind) for kind in ("discord", "slack", "matrix", "generic")}
    for server in servers.values():
        destination(cast_game, server)
    with django_capture_on_commit_callbacks(execute=True):
        tell(cast_game, url="https://example.org/games/1/", fields=(("Lynched", "Elm"),))
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"sent"}

    [discord] = servers["discord"].posted
    embed = discord["embeds"][0]
    assert embed["title"] == "The named cast · Day 2 has begun"
    assert embed["description"] == "Elm was lynched."
    assert embed["fields"] == [{"name": "Lynched", "value": "Elm", "inline": True}]
    assert discord["allowed_mentions"] == {"parse": []}  # mentions are off by default
    assert "wait=true" in servers["discord"].requests[0].path

    [slack] = servers["slack"].posted
    assert [b["type"] for b in slack["blocks"]] == ["section", "context"]
    assert "*The named cast · Day 2 has begun*" in slack["blocks"][0]["text"]["text"]
    assert "<https://example.org/games/1/|" in slack["blocks"][1]["elements"][-1]["text"]

    [matrix] = servers["matrix"].posted
    assert matrix["msgtype"] == "m.notice"
    assert matrix["body"].startswith("The named cast · Day 2 has begun\nElm was lynched.")
    put = servers["matrix"].requests[0]
    assert put.method == "PUT" and "/rooms/%21room%3Aexample.org/send/m.room.message/" in put.path

    [generic] = servers["generic"].posted  # the server verified its signature
    assert generic["type"] == "phase_began"
    assert generic["data"]["fields"] == [{"name": "Lynched", "value": "Elm"}]
    headers = servers["generic"].requests[0].headers
    row = WebhookDelivery.objects.get(endpoint__kind="generic")
    assert headers["webhook-id"] == row.message_id
    assert headers["webhook-signature"].startswith("v1,")


def test_a_tampered_body_or_another_secret_fails_the_signature(cast_game, serve):
    server = serve("generic")
    destination(cast_game, server)
    server.secret = "whsec_" + "QUJD" * 8  # the server expects another key
    tell(cast_game)
    send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and row.last_error == "HTTP 400"
    assert server.posted == []


def test_only_the_events_a_destination_chose_are_posted_and_once_is_once(cast_game, serve):
    server = serve("slack")
    destination(cast_game, server, events=["game_ended"])
    tell(cast_game, "phase_began")
    assert not WebhookDelivery.objects.exists()
    tell(cast_game, "game_ended", once="end")
    tell(cast_game, "game_ended", once="end")  # told twice, posted once
    send.deliveries_sweep()
    assert len(server.posted) == 1


def test_a_disabled_destination_gets_nothing_and_another_game_s_neither(
    cast_game, serve, moderator, cast_users
):
    from tests.games.conftest import make_game

    server = serve("slack")
    endpoint = destination(cast_game, server)
    endpoint.enabled = False
    endpoint.save()
    tell(cast_game)
    other = serve("slack")
    destination(cast_game, other)
    second = make_game(moderator, cast_users, start=False, title="Another game")
    tell(second)  # another game's story does not reach this game's destinations
    send.deliveries_sweep()
    assert server.posted == [] and other.posted == []


def test_a_site_wide_destination_hears_every_game(cast_game, serve):
    server = serve("slack")
    endpoint = destination(cast_game, server)
    endpoint.game = None
    endpoint.save()
    tell(cast_game)
    tell(None, "signups_open", title="A new game is open")
    send.deliveries_sweep()
    assert [p["text"] for p in server.posted] == [
        "The named cast · Day 2 has begun",
        "A new game is open",
    ]


def test_the_vote_count_is_debounced_and_edited_in_place_on_discord(cast_game, serve):
    server = serve("discord")
    destination(cast_game, server)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        tell(cast_game, "vote_count", title="Votes: Elm 1", replaces="votes-day-1")
        tell(cast_game, "vote_count", title="Votes: Elm 2", replaces="votes-day-1")
        assert send.deliveries_sweep() == 0  # waits for the votes to settle
        assert WebhookDelivery.objects.count() == 1
    with time_machine.travel(start + timezone.timedelta(seconds=31), tick=False):
        assert send.deliveries_sweep() == 1
    assert [p["embeds"][0]["title"] for p in server.posted] == ["Votes: Elm 2"]
    kept = WebhookMessage.objects.get()
    with time_machine.travel(start + timezone.timedelta(seconds=40), tick=False):
        tell(cast_game, "vote_count", title="Votes: Elm 3", replaces="votes-day-1")
    with time_machine.travel(start + timezone.timedelta(seconds=80), tick=False):
        assert send.deliveries_sweep() == 1
    assert len(server.posted) == 1  # no new message: the first one edited
    assert server.requests[-1].method == "PATCH"
    assert server.requests[-1].path.endswith(f"/messages/{kept.message_id}")
    assert server.messages[kept.message_id]["embeds"][0]["title"] == "Votes: Elm 3"


def test_a_deleted_discord_message_is_posted_anew(cast_game, serve):
    server = serve("discord")
    endpoint = destination(cast_game, server)
    WebhookMessage.objects.create(endpoint=endpoint, replaces="votes", message_id="999")
    tell(cast_game, "vote_count", title="Votes", replaces="votes")
    WebhookDelivery.objects.update(next_try_at=timezone.now())
    send.deliveries_sweep()
    assert WebhookMessage.objects.get(endpoint=endpoint).message_id != "999"


def test_a_matrix_retry_sends_the_same_transaction_id_and_posts_once(cast_game, serve):
    server = serve("matrix", lose_answers=1)  # posts, then the answer is lost
    destination(cast_game, server)
    tell(cast_game)
    send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "pending" and row.attempts == 1
    WebhookDelivery.objects.update(next_try_at=timezone.now())
    send.deliveries_sweep()
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 2
    first, second = (r.path for r in server.requests)
    assert first == second and first.endswith("/" + row.message_id)
    assert len(server.posted) == 1  # the homeserver took the repeat as the same message


def test_mentions_ping_only_where_allowed(cast_game, serve, cast_users):
    quiet, loud = serve("discord"), serve("discord")
    destination(cast_game, quiet)
    destination(cast_game, loud, mentions=True)
    tell(cast_game, mentions=(cast_users["ann"].pk,))
    send.deliveries_sweep()
    assert "content" not in quiet.posted[0]
    assert quiet.posted[0]["allowed_mentions"] == {"parse": []}
    assert loud.posted[0]["content"] == "@Ann"


def test_each_destination_hears_the_story_in_its_language(cast_game, serve):
    from django.utils.translation import get_language

    english, german = serve("slack"), serve("slack")
    destination(cast_game, english)
    destination(cast_game, german, language="de")
    from django.db import transaction

    from games.webhooks import story

    with transaction.atomic():
        story.announce(
            cast_game,
            "phase_began",
            lambda language: story.Story(event="phase_began", title=f"{language}/{get_language()}"),
        )
    send.deliveries_sweep()
    assert english.posted[0]["text"] == "en/en"
    assert german.posted[0]["text"] == "de/de"


def test_a_delivery_problem_never_refuses_the_game_s_write(cast_game, serve, caplog):
    server = serve("slack")
    destination(cast_game, server)

    def broken(language):
        raise RuntimeError("a builder's bug")

    from django.db import transaction

    from games.webhooks import story

    with transaction.atomic():
        story.announce(cast_game, "phase_began", broken)
        cast_game.title = "Still written"
        cast_game.save()
    cast_game.refresh_from_db()
    assert cast_game.title == "Still written"
    assert not WebhookDelivery.objects.exists()
    assert "webhook deliveries for phase_began" in caplog.text


def test_a_game_without_destinations_costs_a_write_no_query_once_known(cast_game, serve):
    """"No destination here" is remembered: the second announcement reads no row; a
    destination added (a signal) or turned on again is heard at once."""
    tell(cast_game)  # learns that nothing listens
    with CaptureQueriesContext(connection) as queries:
        tell(cast_game)
    assert not [q for q in queries.captured_queries if "webhookendpoint" in q["sql"]]
    server = serve("slack")
    destination(cast_game, server)
    tell(cast_game)
    assert WebhookDelivery.objects.count() == 1
