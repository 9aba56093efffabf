"""The sealed deal in a real browser (issue 17, docs/fair-deal.md): the moderator starts the
game, a player reads the fingerprint in the first post, the game ends, and the reveal's
deal text hashes, here in the test, to the fingerprint the first post showed."""

import hashlib
import json
import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST[:5]  # no Fay


@pytest.fixture
def open_game(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    # Shuffled with a seed of the site's choosing, and started from the page by the host.
    game = make_game(
        host, users, CAST, start=False, title="Sealed village", seed=None, shuffle=True
    )
    return game, users, host


@pytest.mark.django_db(transaction=True)
def test_the_first_posts_fingerprint_seals_the_deal_the_reveal_shows(
    browser, live_server, open_game, shot
):
    game, users, host = open_game
    url = f"{live_server.url}/games/{game.pk}/"

    moderator = signed_in_page(browser, live_server.url, host)
    moderator.goto(url)
    moderator.get_by_role("button", name="Start the game").click()
    expect(moderator.get_by_text("The game has started")).to_be_visible()

    # The first post publishes the fingerprint; the player copies it from the page.
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(f"{url}?page=1")
    first = ann.locator("#p1")
    expect(first).to_contain_text("The deal is sealed")
    fingerprint = first.locator("code.fingerprint").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", fingerprint)
    shot(ann, "fair-deal-first-post")

    # Before the finish its page shows the fingerprint and no deal.
    first.get_by_role("link", name="How to check the deal").click()
    expect(ann.get_by_role("heading", name="The sealed deal")).to_be_visible()
    expect(ann.locator("#fair-deal-commitment")).to_have_text(fingerprint)
    expect(ann.get_by_text("stay secret until the final reveal")).to_be_visible()
    expect(ann.locator("#deal-text")).to_have_count(0)
    game.refresh_from_db()
    assert game.deal_salt not in ann.content()

    # The middle of the game, off screen: the moderator declares a stalemate (W-72).
    services.stalemate_declare(game=game, by=host)

    ann.goto(f"{url}reveal/")
    deal_text = ann.locator("#deal-text").inner_text()
    expect(ann.locator("#fair-deal-verdict")).to_contain_text("matches its fingerprint")
    expect(ann.locator("#fair-deal-commitment")).to_have_text(fingerprint)
    # The test's own SHA-256 of the text on screen against the first post's fingerprint.
    assert hashlib.sha256(deal_text.encode("ascii")).hexdigest() == fingerprint
    seats = json.loads(deal_text)["seats"]
    assert sorted(seat[0] for seat in seats) == ["ann", "bob", "cat", "dan", "eve"]
    assert ann.locator("#deal-command").inner_text() == f"printf '%s' '{deal_text}' | sha256sum"
    shot(ann, "fair-deal-reveal")

    # The game's own page, now open too, says the same of the same text.
    ann.get_by_role("link", name="How the deal is sealed, and how to check it").click()
    expect(ann.locator("#fair-deal-verdict")).to_contain_text("matches its fingerprint")
    assert ann.locator("#deal-text").inner_text() == deal_text

    # The check anyone can paste into says the same, and a changed card is refused.
    ann.goto(f"{live_server.url}/fair-deal/")
    ann.get_by_label("Deal text").fill(deal_text)
    ann.get_by_label("Fingerprint (SHA-256)").fill(fingerprint)
    ann.get_by_role("button", name="Check").click()
    expect(ann.locator("#fair-deal-verdict")).to_contain_text("matches its fingerprint")
    ann.get_by_label("Deal text").fill(deal_text.replace('"priest"', '"oracle"', 1))
    ann.get_by_role("button", name="Check").click()
    expect(ann.locator("#fair-deal-verdict")).to_contain_text("does not match")
