"""Replacements in a real browser (issue 16): a game with a prod rule; Dan says nothing,
so the clock's sweep prods him once, then a second time, which marks his seat; Vic, on the
replacement list, finds the offer among his notifications, takes the seat with one click
and lands on Dan's role page; the thread says Vic replaces Dan. The moderator's desk shows
the prods and the waiting seat on the way. Screenshots: desk-activity.png,
replacement-offer.png."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.community import ticks
from games.community.services import replacements
from games.services import sweep
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST
H = timedelta(hours=1)


def _everyone_but_dan_posts(game, users):
    for name in ("ann", "bob", "cat", "eve", "fay"):
        services.post_create(game=game, user=users[name], body=f"{name} is here.")


@pytest.mark.django_db(transaction=True)
def test_a_silent_player_is_prodded_out_and_a_volunteer_takes_the_seat(browser, live_server, shot):
    start = timezone.now()  # the real date, so the browser's cookies stay current
    with time_machine.travel(start, tick=True) as traveller:
        users = users_for(CAST)
        host = UserFactory(player_name="Host")
        vic = UserFactory(player_name="Vic")
        game = make_game(host, users, CAST, title="Quiet village", seed=5, prod_after=24 * H)
        replacements.volunteer_join(user=vic, hours_per_week=6, note="evenings")

        # Day 1: everyone but Dan talks; a day later the sweep prods Dan, and only him.
        traveller.move_to(start + 2 * H)
        _everyone_but_dan_posts(game, users)
        traveller.move_to(start + 25 * H)
        assert sweep.clock_sweep(share=False) == {ticks.PRODDED: 1}
        traveller.move_to(start + 40 * H)
        _everyone_but_dan_posts(game, users)

        mod = signed_in_page(browser, live_server.url, host)
        mod.goto(f"{live_server.url}/games/{game.pk}/desk/")
        dan_row = (
            mod.locator("#presence-title").locator("..").get_by_role("row", name=re.compile("Dan"))
        )
        expect(dan_row.get_by_role("cell").nth(5)).to_have_text("1")  # one prod so far

        # The next lapse: the second prod marks Dan's seat and offers it to Vic.
        traveller.move_to(start + 50 * H)
        assert sweep.clock_sweep(share=False) == {ticks.PRODDED: 1}
        mod.reload()
        expect(dan_row).to_contain_text("Wanted")
        expect(mod.get_by_text("Vic", exact=False).first).to_be_visible()
        shot(mod, "desk-activity")

        # Vic finds the offer in-site and takes the seat in one click.
        volunteer = signed_in_page(browser, live_server.url, vic)
        volunteer.get_by_role("link", name="Games", exact=True).click()
        volunteer.get_by_role("link", name="The replacement list").click()
        wanted = volunteer.get_by_role("region", name="Seats wanted now")
        expect(wanted.get_by_role("row", name=re.compile("Dan"))).to_contain_text("Your offer")
        volunteer.get_by_role("link", name=re.compile("Notifications")).click()
        volunteer.get_by_role("button", name=re.compile("Dan's seat in Quiet village")).click()
        expect(volunteer.get_by_role("heading", name="Dan’s seat in Quiet village")).to_be_visible()
        expect(volunteer.locator("main")).not_to_contain_text("Recluse")  # no card before
        shot(volunteer, "replacement-offer")
        volunteer.get_by_role("button", name="Take the seat").click()
        expect(volunteer.get_by_role("heading", name="Your role", level=1)).to_be_visible()
        expect(volunteer.get_by_role("heading", name="Recluse")).to_be_visible()

        # The thread says so, and Dan has no seat to act for any more.
        volunteer.goto(f"{live_server.url}/games/{game.pk}/")
        expect(volunteer.locator(".post", has_text="Vic replaces Dan.")).to_be_visible()
        expect(
            volunteer.locator(".post", has_text="A replacement is wanted for Dan.")
        ).to_be_visible()
        # Ann may ask to be replaced too: a confirmation page first, which she cancels.
        ann = signed_in_page(browser, live_server.url, users["ann"])
        ann.goto(f"{live_server.url}/games/{game.pk}/role/")
        ann.get_by_role("link", name="Ask to be replaced…").click()
        expect(
            ann.get_by_role("heading", name="Ask to be replaced in Quiet village?")
        ).to_be_visible()
        ann.get_by_role("link", name="Cancel").click()
        expect(ann.get_by_role("heading", name="Your role", level=1)).to_be_visible()
        dan = signed_in_page(browser, live_server.url, users["dan"])
        response = dan.goto(f"{live_server.url}/games/{game.pk}/role/")
        assert response.status == 404
