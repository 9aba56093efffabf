"""Deadlines as players live them, in Chromium: the moderator sets an exact deadline in
their own zone on the desk and each reader sees the notice's time in theirs (without
JavaScript too); a page open when the deadline passes says so and offers to reload, and
keeps doing so on a deadline swapped in again (as static/js/live.js does)."""

import zoneinfo
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.e2e.conftest import BROWSER_CAST, assert_accessible, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST
PASSED = "The deadline has passed — reload to see the new phase."


@pytest.fixture
def day_1(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host", time_zone="Asia/Tokyo")
    return make_game(host, users, CAST, title="Browser deadlines", seed=5), users, host


def _words(moment, zone):
    """A moment as a notice shows it in `zone` ("D j M, H:i T")."""
    local = moment.astimezone(zoneinfo.ZoneInfo(zone))
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} {local.tzname()}"


@pytest.mark.django_db(transaction=True)
def test_the_moderator_sets_the_deadline_in_their_zone_and_each_reader_sees_theirs(
    browser, live_server, day_1
):
    game, users, host = day_1
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    wanted = (
        (timezone.now() + timedelta(days=2))
        .astimezone(tokyo)
        .replace(hour=21, minute=30, second=0, microsecond=0)
    )
    mod = signed_in_page(browser, live_server.url, host)
    mod.goto(f"{live_server.url}/games/{game.pk}/desk/")
    clock = mod.get_by_role("region", name="Clock")
    expect(clock).to_contain_text("Your time zone: Asia/Tokyo.")
    clock.get_by_label("Set the deadline to").fill(f"{wanted:%Y-%m-%dT%H:%M}")
    clock.get_by_role("button", name="Set the deadline").click()
    expect(mod.locator(".message--success")).to_contain_text("The deadline is set.")
    assert Game.objects.get(pk=game.pk).deadline_at == wanted

    # Ann reads in New York; Bob reads without the site's scripts, in his zone (UTC).
    ann, bob = users["ann"], users["bob"]
    ann.time_zone = "America/New_York"
    ann.save(update_fields=["time_zone"])
    said = "The moderator set the deadline of day 1: it now ends "
    for user, zone, scripts in ((ann, "America/New_York", True), (bob, "UTC", False)):
        page = signed_in_page(browser, live_server.url, user, scripts=scripts)
        page.goto(f"{live_server.url}/games/{game.pk}/?page=last")
        notice = page.locator(".post--moderator").last
        expect(notice).to_contain_text(said + _words(wanted, zone) + ".")


@pytest.mark.django_db(transaction=True)
def test_a_page_open_at_the_deadline_offers_to_reload(browser, live_server, day_1):
    game, users, host = day_1
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(seconds=6))
    url = f"{live_server.url}/games/{game.pk}/"
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(url)
    deadline = ann.locator("[data-deadline]").first
    expect(deadline.locator(".countdown")).to_have_text("in less than a minute")
    status = deadline.get_by_role("status")
    expect(status).to_have_text("")
    expect(status).to_contain_text(PASSED, timeout=15000)
    expect(deadline.locator(".countdown")).to_be_hidden()  # no "any moment now" for ever
    assert_accessible(ann)

    # The clock's sweep ends the day; the reload shows the night.
    services.phase_advance(game=Game.objects.get(pk=game.pk), by=host)
    status.get_by_role("button", name="Reload").click()
    expect(ann.locator("[data-deadline]").first).to_contain_text("Night 1 ends")
    expect(ann.locator("[data-deadline]").first.get_by_role("status")).to_have_text("")

    # A deadline swapped in again, as the live refresh does (its <script> does not run):
    # the page's one timer keeps it, and says so again when it passes.
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(seconds=4))
    ann.evaluate(
        """async (url) => {
            const html = await (await fetch(url)).text();
            const fresh = new DOMParser().parseFromString(html, "text/html")
              .querySelector("[data-deadline]");
            document.querySelector("[data-deadline]")
              .replaceWith(document.importNode(fresh, true));
        }""",
        url,
    )
    swapped = ann.locator("[data-deadline]").first
    expect(swapped.get_by_role("status")).to_contain_text(PASSED, timeout=15000)
    expect(swapped.get_by_role("status").get_by_role("button")).to_have_count(1)


@pytest.mark.django_db(transaction=True)
def test_without_the_script_the_deadline_reads_as_rendered(browser, live_server, day_1):
    game, users, _host = day_1
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=5))
    page = signed_in_page(browser, live_server.url, users["ann"], scripts=False)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    deadline = page.locator("[data-deadline]").first
    expect(deadline.locator(".countdown")).to_have_text("any moment now")
    expect(deadline.get_by_role("status")).to_have_text("")
