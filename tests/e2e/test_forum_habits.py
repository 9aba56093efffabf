"""The forum's habits in a real browser (issue 31): Ann completes `@Bob` in the post box,
previews her post (nothing stored, the text kept), posts it and edits it within the
window; she quotes two posts at one click; the thread shows a vote marker between the
posts a vote came between and each player's post counts; Cat's home page tells her that
her vote is awaited. Without scripts, the single Quote link still quotes."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Post
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST


@pytest.fixture
def day_1(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, cast=CAST, title="Forum habits", seed=5)
    return game, users


def _players(game):
    return Post.objects.filter(game=game, kind="player").count()


@pytest.mark.django_db(transaction=True)
def test_preview_edit_completion_and_multi_quote(browser, live_server, day_1, shot):
    game, users = day_1
    url = f"{live_server.url}/games/{game.pk}/"
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(url)
    box = ann.locator("#post-form textarea")

    # @-name completion from the player list.
    box.click()
    box.press_sequentially("I suspect @B")
    option = ann.locator("#mention-names [role=option]")
    expect(option).to_have_count(1)
    box.press("Enter")
    expect(box).to_have_value("I suspect @Bob ")
    box.press_sequentially("of **lying**")

    # Preview: shown as posted, nothing stored, the text kept.
    ann.locator("#post-form button[name=preview]").click()
    preview = ann.locator(".post-preview")
    expect(preview.locator("strong")).to_have_text("lying")
    expect(preview.locator(f'a[href="/games/{game.pk}/#player-bob"]')).to_be_visible()
    expect(ann.locator("#post-form textarea")).to_have_value("I suspect @Bob of **lying**")
    assert _players(game) == 0
    shot(ann, "forum-preview")

    # Posted, then edited within the window: the post says "edited".
    ann.locator("#post-form button.button--primary").click()
    expect(ann.locator(".post--player .post__body")).to_contain_text("lying")
    ann.locator(".post-editable a").click()
    edit = ann.locator("#post-form textarea")
    expect(edit).to_have_value("I suspect @Bob of **lying**")
    edit.fill("I suspect @Bob of **lying** about his role")
    ann.locator("#post-form button.button--primary").click()
    expect(ann.locator(".post--player .post__body")).to_contain_text("about his role")
    expect(ann.locator(".post--player .post__edited")).to_be_visible()
    expect(ann.locator(".post--player .post__edited a")).to_have_count(0)  # not for players

    # The moderator reads every version, the first as posted.
    host = signed_in_page(browser, live_server.url, game.host)
    host.goto(f"{url}?page=1")
    host.locator(".post--player .post__edited a").click()
    versions = host.locator(".post__body")
    expect(versions).to_have_count(2)
    expect(versions.nth(0)).not_to_contain_text("about his role")
    expect(versions.nth(1)).to_contain_text("about his role")

    # Multi-quote: two posts selected, quoted at one click.
    services.post_create(game=game, user=users["bob"], body="Not me.")
    ann.goto(f"{url}?page=1")
    toggles = ann.locator("[data-quote-toggle]")
    expect(toggles).to_have_count(2)
    toggles.nth(0).click()
    toggles.nth(1).click()
    expect(toggles.nth(1)).to_have_attribute("aria-pressed", "true")
    ann.locator(".multi-quote").click()
    text = ann.locator("#post-form textarea")
    expect(text).to_have_value(re.compile(r"> \*\*Ann\*\* .*#2:[\s\S]*> \*\*Bob\*\* .*#3:"))
    shot(ann, "forum-multi-quote")


@pytest.mark.django_db(transaction=True)
def test_vote_markers_post_counts_and_the_awaited_vote(browser, live_server, day_1):
    game, users = day_1
    services.post_create(game=game, user=users["ann"], body="Morning.")
    services.vote_cast(game=game, user=users["ann"], target="bob")
    services.post_create(game=game, user=users["bob"], body="Why me?")
    cat = signed_in_page(browser, live_server.url, users["cat"])
    cat.goto(f"{live_server.url}/")
    expect(cat.locator("#awaiting-title")).to_be_visible()  # Cat has not voted
    expect(cat.locator(".awaiting a")).to_have_attribute("href", f"/games/{game.pk}/")
    cat.goto(f"{live_server.url}/games/{game.pk}/?page=1")
    marker = cat.locator(".vote-marker")
    expect(marker).to_have_count(1)
    # Between the two posts it came between.
    assert cat.evaluate(
        """() => {
          const m = document.querySelector(".vote-marker");
          return m.previousElementSibling.textContent.includes("Morning")
            && m.nextElementSibling.textContent.includes("Why me");
        }"""
    )
    expect(cat.locator("#player-ann .player__posts")).to_be_visible()
    expect(cat.locator("#player-dan .player__posts")).to_contain_text("0")
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(f"{live_server.url}/")
    expect(ann.locator("#awaiting-title")).to_have_count(0)  # Ann voted


@pytest.mark.django_db(transaction=True)
def test_without_scripts_the_single_quote_still_quotes(browser, live_server, day_1):
    game, users = day_1
    services.post_create(game=game, user=users["bob"], body="Quote me.")
    ann = signed_in_page(browser, live_server.url, users["ann"], scripts=False)
    ann.goto(f"{live_server.url}/games/{game.pk}/?page=1")
    expect(ann.locator("[data-quote-toggle]")).to_have_count(0)
    ann.locator('.post__actions a[href*="quote="]').click()
    expect(ann.locator("#post-form textarea")).to_have_value(re.compile(r"> Quote me\."))


@pytest.mark.django_db(transaction=True)
def test_an_edit_reaches_an_open_page_without_a_reload(browser, live_server, day_1, settings):
    settings.LIVE_REFRESH_SECONDS = 1
    game, users = day_1
    post = services.post_create(game=game, user=users["ann"], body="Before the edit.")
    bob = signed_in_page(browser, live_server.url, users["bob"])
    bob.goto(f"{live_server.url}/games/{game.pk}/?page=1")
    body = bob.locator(f"#p{post.number} .post__body")
    expect(body).to_contain_text("Before the edit.")
    services.post_edit(
        game=game, user=users["ann"], thread="public", number=post.number, body="After it."
    )
    expect(body).to_contain_text("After it.", timeout=10_000)
    expect(bob.locator("#live-status")).not_to_be_empty()
