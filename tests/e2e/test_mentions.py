"""A mention in a real browser (issue 15): Ann writes `@bob` in the day thread; the name
is a link to Bob's line in the player list, and Bob sees the count in the header, the
notification on /notifications/, and lands on Ann's post when he opens it."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import forget_start_notices, make_game, users_for

CAST = BROWSER_CAST


@pytest.fixture
def day_1(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, cast=CAST, title="Browser mentions", seed=5)
    forget_start_notices()  # the header counts the mention alone
    return game, users


@pytest.mark.django_db(transaction=True)
def test_ann_mentions_bob_and_bob_finds_the_post_from_his_notifications(
    browser, live_server, day_1
):
    game, users = day_1
    url = f"{live_server.url}/games/{game.pk}/"

    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(url)
    ann.get_by_label("Your post").fill("I am sure @bob is hiding something. `@cat` is not.")
    ann.get_by_role("button", name="Post").click()
    mention = ann.locator(".post a", has_text="@Bob")
    expect(mention).to_have_attribute("href", f"/games/{game.pk}/#player-bob")
    expect(ann.locator(".post code", has_text="@cat")).to_be_visible()
    expect(ann.locator(".nav-count")).to_have_count(0)  # nobody told Ann of her own post

    bob = signed_in_page(browser, live_server.url, users["bob"])
    bob.goto(url)
    bell = bob.get_by_role("link", name="Notifications 1 unread")
    expect(bell).to_be_visible()
    bell.click()
    item = bob.get_by_role("button", name="Ann mentioned you in the day thread")
    expect(item).to_be_visible()
    expect(bob.locator(".notification")).to_contain_text("Browser mentions")
    item.click()
    expect(bob).to_have_url(f"{url}?page=1#p2")
    expect(bob.locator("#p2")).to_contain_text("is hiding something")
    expect(bob.locator(".nav-count")).to_have_count(0)  # read once opened
