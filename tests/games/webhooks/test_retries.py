"""Polite and reliable: timeouts, 5xx and 429 are tried again with growing gaps (a
Retry-After honoured, in seconds or as a date), a day later the row is given up, a 4xx
or a redirect fails it at once, and a destination that keeps failing is turned off with
the moderator told on the desk. Time is moved, not slept."""

from datetime import timedelta
from email.utils import format_datetime

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.models import Notification, WebhookDelivery, WebhookEndpoint
from games.selectors.notifications import notification_url
from games.webhooks.services import send
from games.webhooks.services.deliveries import quiet_forget
from tests.games.webhooks.conftest import destination, tell

# Each starts HTTP servers on loopback.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _gaps(row, tries):
    """Send `row` `tries` times, each when due; the gap each failure set (seconds)."""
    gaps = []
    for _ in range(tries):
        row.refresh_from_db()
        now = row.next_try_at
        with time_machine.travel(now, tick=False):
            send.deliveries_sweep()
        row.refresh_from_db()
        if row.status != "pending":
            break
        gaps.append(round((row.next_try_at - now).total_seconds()))
    return gaps


def test_a_failing_server_is_tried_with_growing_gaps_then_given_up_after_a_day(
    cast_game, serve, settings
):
    settings.WEBHOOK_DISABLE_AFTER = 10
    server = serve("failing")
    destination(cast_game, server, kind="slack")
    tell(cast_game)
    row = WebhookDelivery.objects.get()
    gaps = _gaps(row, 30)
    assert gaps[:8] == [30, 60, 120, 240, 480, 960, 1920, 3600]
    assert set(gaps[8:]) == {3600}
    assert row.status == "gave_up" and row.last_status == 500
    assert row.last_error == "given up: HTTP 500"
    assert row.next_try_at - row.created_at <= timedelta(days=1)
    assert row.created_at + timedelta(days=1) - row.next_try_at < timedelta(hours=1)
    assert len(server.requests) == row.attempts == len(gaps) + 1


def test_a_slow_server_times_out_and_is_tried_again(cast_game, serve, settings):
    settings.WEBHOOK_TIMEOUT = 0.3
    server = serve("slow", delay=1.0)
    destination(cast_game, server, kind="slack")
    tell(cast_game)
    send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "pending" and row.last_error == "timed out"
    assert row.next_try_at > timezone.now() + timedelta(seconds=25)
    server.delay = 0
    with time_machine.travel(row.next_try_at, tick=False):
        send.deliveries_sweep()
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 2


@pytest.mark.parametrize("as_date", [False, True])
def test_a_rate_limit_waits_as_long_as_retry_after_asks(cast_game, serve, as_date):
    server = serve("rate_limited")
    destination(cast_game, server, kind="slack")
    tell(cast_game)
    now = timezone.now().replace(microsecond=0) + timedelta(seconds=1)  # the row is due
    server.retry_after = (
        format_datetime(now + timedelta(minutes=10), usegmt=True) if as_date else "600"
    )
    with time_machine.travel(now, tick=False):
        send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "pending" and row.last_status == 429
    assert row.next_try_at == now + timedelta(minutes=10)  # not the first gap's 30 s
    with time_machine.travel(now + timedelta(minutes=9), tick=False):
        send.deliveries_sweep()
    assert len(server.requests) == 1  # nothing before the server's time
    server.kind = "slack"
    with time_machine.travel(now + timedelta(minutes=10), tick=False):
        send.deliveries_sweep()
    row.refresh_from_db()
    assert row.status == "sent" and len(server.requests) == 2


@pytest.mark.parametrize(
    ("kind", "error"),
    [("gone", "HTTP 404"), ("redirecting", "HTTP 302: redirects are not followed")],
)
def test_a_4xx_or_a_redirect_fails_the_row_at_once(cast_game, serve, kind, error):
    server = serve(kind)
    destination(cast_game, server, kind="slack")
    tell(cast_game)
    send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.status == "failed" and row.last_error == error and row.attempts == 1
    assert len(server.requests) == 1  # the redirect's target was never asked


def test_a_destination_that_keeps_failing_is_turned_off_and_the_desk_says_so(
    cast_game, serve, client, settings
):
    settings.WEBHOOK_DISABLE_AFTER = 3
    server = serve("gone")
    endpoint = destination(cast_game, server, kind="discord")
    for _ in range(3):
        tell(cast_game)
        send.deliveries_sweep()
    endpoint.refresh_from_db()
    assert not endpoint.enabled and endpoint.failures == 3
    assert endpoint.disabled_reason == "HTTP 404" and endpoint.disabled_at
    tell(cast_game)  # a disabled destination gets no more rows
    assert WebhookDelivery.objects.count() == 3

    client.force_login(cast_game.host)
    inbox = client.get(reverse("notifications")).content.decode()
    assert (
        "A chat destination of The named cast (127.0.0.1) was turned off: its deliveries "
        "kept failing. The desk says why."
    ) in inbox
    [note] = Notification.objects.filter(user=cast_game.host, kind="webhook")
    assert notification_url(cast_game, note.kind, "public", None) == reverse(
        "game_desk", args=[cast_game.pk]
    )
    desk = client.get(reverse("game_desk", args=[cast_game.pk])).content.decode()
    assert "A destination was turned off after its deliveries kept failing" in desk
    assert "Turned off after repeated failed deliveries; the last: HTTP 404" in desk

    server.kind = "discord"  # fixed: the moderator turns it on again
    client.post(reverse("game_webhook_enable", args=[cast_game.pk, endpoint.pk]))
    endpoint.refresh_from_db()
    assert endpoint.enabled and endpoint.failures == 0
    tell(cast_game)
    send.deliveries_sweep()
    assert len(server.posted) == 1


def test_a_success_clears_the_count_of_failures(cast_game, serve, settings):
    settings.WEBHOOK_DISABLE_AFTER = 2
    server = serve("gone")
    endpoint = destination(cast_game, server, kind="slack")
    tell(cast_game)
    send.deliveries_sweep()
    server.kind = "slack"
    tell(cast_game)
    send.deliveries_sweep()
    server.kind = "gone"
    tell(cast_game)
    send.deliveries_sweep()
    endpoint.refresh_from_db()
    assert endpoint.enabled and endpoint.failures == 1


def test_a_claimed_row_is_not_sent_twice_by_a_rival(cast_game, serve):
    server = serve("slack")
    destination(cast_game, server)
    tell(cast_game)
    row = WebhookDelivery.objects.get()
    now = timezone.now()
    assert send._claim(row, now)
    assert send.deliveries_send(ids=[row.pk]) == 0  # a duplicate task: claimed, skipped
    assert send.deliveries_sweep() == 0
    assert server.requests == []
    assert WebhookEndpoint.objects.get().enabled


def test_rows_done_are_forgotten_after_a_month_and_pending_ones_kept(cast_game, serve):
    server = serve("slack")
    destination(cast_game, server)
    tell(cast_game)
    send.deliveries_sweep()
    WebhookEndpoint.objects.update(enabled=False)
    tell(cast_game)  # a disabled destination: no row
    WebhookEndpoint.objects.update(enabled=True)
    quiet_forget(cast_game.pk)  # a raw UPDATE sends no signal (the desk's "on again" forgets)
    server.kind = "failing"
    tell(cast_game)
    send.deliveries_sweep()
    assert sorted(WebhookDelivery.objects.values_list("status", flat=True)) == ["pending", "sent"]
    later = timezone.now() + timedelta(days=31)
    with time_machine.travel(later, tick=False):
        WebhookEndpoint.objects.update(enabled=False)  # the pending row is not due to be sent
        send.deliveries_sweep()
    assert list(WebhookDelivery.objects.values_list("status", flat=True)) == ["gave_up"]


def test_a_new_vote_count_never_hastens_a_retry(cast_game, serve):
    server = serve("failing")
    destination(cast_game, server, kind="discord")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        tell(cast_game, "vote_count", title="Votes 1", replaces="votes")
    for _ in range(5):  # gaps of 30 s, 1, 2, 4, 8 minutes
        row = WebhookDelivery.objects.get()
        with time_machine.travel(row.next_try_at, tick=False):
            send.deliveries_sweep()
    row = WebhookDelivery.objects.get()
    assert row.next_try_at - row.created_at > timedelta(minutes=15)
    with time_machine.travel(row.next_try_at - timedelta(minutes=5), tick=False):
        tell(cast_game, "vote_count", title="Votes 2", replaces="votes")
    after = WebhookDelivery.objects.get()
    assert after.next_try_at == row.next_try_at  # the words changed, the wait did not
    assert after.payload["embeds"][0]["title"] == "Votes 2"


def test_turned_on_again_days_later_its_stale_rows_are_given_up_without_turning_it_off(
    cast_game, serve, client, settings
):
    settings.WEBHOOK_DISABLE_AFTER = 2
    server = serve("gone")
    endpoint = destination(cast_game, server, kind="slack")
    for _ in range(2):
        tell(cast_game)
        send.deliveries_sweep()
    for _ in range(3):
        tell(cast_game)  # off: no rows
    endpoint.refresh_from_db()
    assert not endpoint.enabled
    WebhookEndpoint.objects.update(enabled=True)
    quiet_forget(cast_game.pk)  # a raw UPDATE sends no signal (the desk's "on again" forgets)
    tell(cast_game)
    tell(cast_game)
    WebhookEndpoint.objects.update(enabled=False)  # two rows wait while it is off
    server.kind = "slack"
    client.force_login(cast_game.host)
    with time_machine.travel(timezone.now() + timedelta(days=2), tick=False):
        client.post(reverse("game_webhook_enable", args=[cast_game.pk, endpoint.pk]))
        send.deliveries_sweep()
        tell(cast_game)
        send.deliveries_sweep()
    endpoint.refresh_from_db()
    assert endpoint.enabled and endpoint.failures == 0
    statuses = sorted(WebhookDelivery.objects.values_list("status", flat=True))
    assert statuses == ["failed", "failed", "gave_up", "gave_up", "sent"]
