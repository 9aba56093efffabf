"""The game page keeps itself current (static/js/live.js, issue 15): Ann has the page
open, Bob posts and votes in his own browser, and Ann's page shows his post and the new
count within the poll's interval, without a reload, and says so politely."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST[:5]  # no Fay


@pytest.fixture
def game(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    return make_game(host, users, CAST, title="Live village", seed=11), users


@pytest.mark.django_db(transaction=True)
def test_a_new_post_and_vote_appear_on_an_open_page_without_a_reload(
    browser, live_server, game, settings
):
    settings.LIVE_REFRESH_SECONDS = 1
    game, users = game
    url = f"{live_server.url}/games/{game.pk}/"
    ann = signed_in_page(browser, live_server.url, users["ann"])
    bob = signed_in_page(browser, live_server.url, users["bob"])
    ann.goto(url)
    expect(ann.locator("[data-live-interval]")).to_have_attribute("data-live-interval", "1")
    ann.evaluate("window.liveMarker = 'no reload'")
    before = ann.locator("ol.posts > li").count()

    bob.goto(url)
    bob.get_by_label("Your post").fill("Dan has been quiet, live from Bob.")
    bob.get_by_role("button", name="Post").click()
    expect(bob.locator(".post").last).to_contain_text("live from Bob")

    # Within the poll's interval (1 s here) Ann's page has it, at the end of the thread.
    expect(ann.locator(".post").last).to_contain_text("live from Bob", timeout=5000)
    expect(ann.locator("ol.posts > li")).to_have_count(before + 1)
    expect(ann.locator("#live-status")).to_have_text("1 new post.")
    assert ann.evaluate("window.liveMarker") == "no reload"

    bob.get_by_label("Your vote").select_option(label="Dan")
    bob.get_by_role("button", name="Vote", exact=True).click()
    expect(ann.locator(".panel--votes .vote-count")).to_contain_text("Dan", timeout=5000)
    expect(ann.locator("#live-status")).to_contain_text("The vote count changed.")
    assert ann.evaluate("window.liveMarker") == "no reload"


@pytest.mark.django_db(transaction=True)
def test_a_live_phase_change_and_new_posts_leave_nothing_stale(
    browser, live_server, game, settings
):
    """Issue 31: when night falls under an open page, its header's phase and the post form
    (now the words saying nobody posts at night) follow, beside the reload link; and the
    read bar counts the posts appended below it too."""
    from games import services

    settings.LIVE_REFRESH_SECONDS = 1
    game, users = game
    url = f"{live_server.url}/games/{game.pk}/"
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(url)  # her visit: the thread is read
    services.post_create(game=game, user=users["bob"], body="One while Ann was away.")
    ann.goto(url)
    badge = ann.locator(".read-bar .badge--new")
    expect(badge).to_have_text(re.compile(r"\b1\b"))
    services.post_create(game=game, user=users["bob"], body="Two, live.")
    services.post_create(game=game, user=users["cat"], body="Three, live.")
    expect(ann.locator(".post").last).to_contain_text("Three, live.", timeout=5000)
    expect(badge).to_have_text(re.compile(r"\b3\b"))

    services.phase_advance(game=game, by=game.host)  # night falls
    expect(ann.locator(".live-notice a")).to_be_visible(timeout=5000)
    expect(ann.locator("[data-live-region=phase] .pill")).to_have_text(re.compile("Night 1"))
    expect(ann.get_by_label("Your post")).to_have_count(0)
    expect(ann.locator(".thread-closed")).to_contain_text(re.compile("at night"))


@pytest.mark.django_db(transaction=True)
def test_vote_markers_come_with_the_posts_the_poll_appends(browser, live_server, game, settings):
    """A vote after the last post shows once a post closes its run: the poll appends its
    marker before that post, once, and says one new post (a marker is not a post)."""
    from games import services

    settings.LIVE_REFRESH_SECONDS = 1
    game, users = game
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(f"{live_server.url}/games/{game.pk}/")
    expect(ann.locator("[data-live-interval]")).to_have_attribute("data-live-interval", "1")
    services.vote_cast(game=game, user=users["cat"], target="dan")
    services.post_create(game=game, user=users["bob"], body="After Cat's vote.")
    expect(ann.locator(".post").last).to_contain_text("After Cat's vote.", timeout=5000)
    marker = ann.locator("ol.posts > li.vote-marker")
    expect(marker).to_have_count(1)
    expect(marker).to_have_text(re.compile(r"^Cat votes Dan · L-\d+$"))
    # Just before the new post.
    assert ann.evaluate(
        "document.querySelector('ol.posts > li.vote-marker').nextElementSibling"
        " === document.querySelector('ol.posts > li.post:last-child')"
    )
    expect(ann.locator("#live-status")).to_contain_text("1 new post.")
    services.post_create(game=game, user=users["cat"], body="Another.")
    expect(ann.locator(".post").last).to_contain_text("Another.", timeout=5000)
    expect(marker).to_have_count(1)  # appended once
