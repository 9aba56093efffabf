"""The thread as a reader sees it in a browser (issue 14): a day's end is one summary post
under the moon with the final vote count, the morning one under the sun; the vote history
gives each vote's time and the post it followed; any post opens the vote count as it stood
then; a replaced player's posts keep their name. axe-core checks every page (conftest)."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST[:5]  # no Fay


@pytest.fixture
def played(db):
    """Day 1: Ann posts, Dan and Eve vote for Bob, Bob answers; Zoe takes Ann's seat and
    posts; the day ends with no lynch, the night passes, Day 2 begins."""
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, CAST, title="Reading village", seed=11)
    services.post_create(game=game, user=users["ann"], body="Ann's first thoughts.")  # 2
    services.vote_cast(game=game, user=users["dan"], target="bob")
    services.vote_cast(game=game, user=users["eve"], target="bob")
    services.post_create(game=game, user=users["bob"], body="Why me?")  # 3
    zoe = UserFactory(player_name="Zoe")
    services.player_replace(game=game, seat_name="ann", new_user=zoe, by=host)  # 4
    services.post_create(game=game, user=zoe, body="Zoe takes over.")  # 5
    services.phase_advance(game=game, by=host)  # 6: the day's summary
    game.refresh_from_db()
    services.phase_advance(game=game, by=host)  # 7: the morning's
    return game, users


@pytest.mark.django_db(transaction=True)
def test_a_reader_follows_the_thread_its_summaries_votes_and_counts(browser, live_server, played):
    game, users = played
    page = signed_in_page(browser, live_server.url, users["cat"])
    page.goto(f"{live_server.url}/games/{game.pk}/")

    # The day's end: one post, the moon, the final count, no lynch, then the night.
    dusk = page.locator("#p6")
    expect(dusk.locator(".post__label")).to_have_text("Nightfall")
    expect(dusk.locator(".post__icon--moon")).to_be_visible()
    expect(dusk.locator(".summary__count li").first).to_have_text("Bob (2): Dan, Eve")
    expect(dusk).to_contain_text("No lynch: nobody reached a majority.")
    expect(dusk.locator(".post__announcement").last).to_have_text("Night 1 begins.")
    # The morning: the sun, and nothing after it of the night's before it.
    dawn = page.locator("#p7")
    expect(dawn.locator(".post__label")).to_have_text("Daybreak")
    expect(dawn.locator(".post__icon--sun")).to_be_visible()
    expect(dawn.locator(".post__icon--moon")).to_have_count(0)
    expect(dawn.locator(".post__announcement").last).to_have_text("Day 2 begins.")
    assert page.locator(".post--system").count() == 3  # Day 1, its end, the morning

    # A replaced player's post keeps her name; the newcomer's is his own.
    expect(page.locator("#p2 .post__author")).to_have_text("Ann (replaced by Zoe)")
    expect(page.locator("#p5 .post__author")).to_have_text("Zoe")

    # Day 1's votes: each with its time and the post it followed, which the link opens.
    page.goto(f"{live_server.url}/games/{game.pk}/votes/day-1/")
    votes = page.locator(".vote-history li")
    expect(votes).to_have_count(2)
    expect(votes.first).to_contain_text("Dan votes to lynch Bob.")
    expect(votes.first.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
    votes.first.get_by_role("link", name="after #2").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/\?page=1#p2$"))

    # The vote count as of Bob's post, opened from the post itself.
    page.locator("#p3").get_by_role("link", name="Vote count as of #3").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The vote count as of post #3")
    expect(page.locator(".vote-count li")).to_contain_text("Bob (2): Dan, Eve")
    expect(page.locator(".not-voting")).to_contain_text("Ann (replaced by Zoe)")
