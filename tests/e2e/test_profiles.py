"""A profile after a finished game, and the archive, in a real browser (issue 16): from the
game's player list to a player's profile (the card they held, whether they won, the win
rate), then the archive searched by that player, and the game's reveal from there."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import CAST, users_for
from tests.games.profile_games import village_wins


@pytest.fixture
def finished(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    return village_wins(host, users, title="Browser village"), users


@pytest.mark.django_db(transaction=True)
def test_a_profile_after_a_finished_game_and_the_archive(browser, live_server, finished, shot):
    game, users = finished
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/?page=1")

    # The player list links each player's public profile.
    page.locator("#player-ann").get_by_role("link", name="Ann", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann")
    finished_games = page.locator("table.profile-finished")
    row = finished_games.get_by_role("row", name=re.compile("Browser village"))
    expect(row).to_contain_text("Priest (Holy Villager)")
    expect(row).to_contain_text("The Village")
    expect(row).to_contain_text("Won")
    rates = page.locator("table.profile-rates")
    expect(rates.get_by_role("row", name=re.compile("The Village"))).to_contain_text(
        "1 of 1 won (100%)"
    )
    expect(page.locator(".profile-reliability")).to_have_text(
        "Finished 1 of 1 game; never replaced out."
    )
    shot(page, "profile")

    # The archive, searched by that player, opens the game's reveal.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Games").click()
    page.get_by_role("link", name="Every finished game in the archive").click()
    page.get_by_label("Player").fill("ann")
    page.get_by_label("Winner").select_option(label="The Village")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/archive/\?player=ann&"))
    results = page.locator(".archive-game")
    expect(results).to_have_count(1)
    shot(page, "archive")
    results.get_by_role("link", name="The final reveal of Browser village").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The final reveal")
    expect(page.get_by_role("row", name=re.compile(r"^Ann\b"))).to_contain_text("Winner")


@pytest.mark.django_db(transaction=True)
def test_a_replaced_out_player_and_the_members_own_link(browser, live_server, finished):
    _game, users = finished
    page = signed_in_page(browser, live_server.url, users["eve"])
    page.goto(f"{live_server.url}/accounts/profile/")
    page.get_by_role("link", name="your public profile").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Eve")
    row = page.locator("table.profile-finished").get_by_role("row", name=re.compile("Browser"))
    expect(row).to_contain_text("Replaced out")
    expect(row).not_to_contain_text("Won")
    expect(page.locator(".profile-reliability")).to_have_text(
        "Finished 0 of 1 game; replaced out of 1."
    )
