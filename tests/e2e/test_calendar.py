"""The calendar address on the profile, in a real browser (issue 30): made, copied, read as
a calendar app reads it, renewed (the old address is then a 404), and a running game's
page linking its public feed. Every page is checked with axe as it loads (conftest.py)."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for
from witchhunt.pseudo import unmarked


@pytest.fixture
def running(db):
    users = users_for(BROWSER_CAST)
    host = UserFactory(player_name="Host")
    return make_game(host, users, cast=BROWSER_CAST, title="Browser calendar"), users


@pytest.mark.django_db(transaction=True)
def test_the_profile_makes_copies_and_renews_the_calendar_address(
    browser, live_server, running, shot
):
    game, users = running
    page = signed_in_page(browser, live_server.url, users["ann"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])

    page.goto(f"{live_server.url}/games/{game.pk}/")
    link = page.get_by_role("link", name="Deadlines in your calendar")
    expect(link).to_have_attribute("href", f"/games/{game.pk}/calendar.ics")
    public = page.request.get(f"{live_server.url}/games/{game.pk}/calendar.ics")
    assert public.status == 200 and "Browser calendar · Day 1 ends" in unmarked(public.text())

    page.goto(f"{live_server.url}/accounts/profile/")
    page.get_by_role("button", name="Make my calendar address").click()
    expect(page.get_by_text("Your calendar address is ready")).to_be_visible()
    field = page.get_by_label("Your calendar address")
    first = field.input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/calendar/[\w-]{{32}}\.ics", first), first
    expect(page.get_by_role("link", name="Open it in my calendar app")).to_have_attribute(
        "href", "webcal://" + first.split("://", 1)[1]
    )

    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("status").filter(has_text="Copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == first
    shot(page, "calendar-address")

    feed = page.request.get(first)
    assert feed.status == 200
    assert feed.headers["content-type"] == "text/calendar; charset=utf-8"
    assert "SUMMARY:Browser calendar · Day 1 ends" in unmarked(feed.text())
    page.reload()
    expect(page.get_by_text("A calendar app last read it on")).to_be_visible()

    page.get_by_role("button", name="Make a new address").click()
    expect(page.get_by_text("the old one no longer works")).to_be_visible()
    second = page.get_by_label("Your calendar address").input_value()
    assert second != first
    assert page.request.get(first).status == 404
    assert page.request.get(second).status == 200

    page.get_by_role("button", name="Turn the address off").click()
    expect(page.get_by_role("button", name="Make my calendar address")).to_be_visible()
    assert page.request.get(second).status == 404
