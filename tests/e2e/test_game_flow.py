"""A day and a night in a real browser (issue 5): two players sign in, post, vote to a
lynch, submit night actions, and see the morning. Screenshots: docs/screenshots/."""
import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST[:5]  # no Fay


@pytest.fixture
def game(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host", is_staff=True)
    return make_game(host, users, CAST, title="Browser village", seed=11), users, host


def _fieldset(page, legend):
    return page.locator("fieldset", has=page.locator("legend", has_text=legend))


@pytest.mark.django_db(transaction=True)
def test_two_players_play_a_day_and_a_night(browser, live_server, game, shot):
    game, users, host = game
    url = f"{live_server.url}/games/{game.pk}/"
    ann = signed_in_page(browser, live_server.url, users["ann"])
    bob = signed_in_page(browser, live_server.url, users["bob"])

    ann.goto(f"{live_server.url}/games/")
    # The lobby lists the game (and, above, tells Ann it awaits her vote: issue 31).
    expect(ann.get_by_role("table").get_by_role("link", name="Browser village")).to_be_visible()
    shot(ann, "lobby")

    # Day 1: both post, both vote for Dan; Cat's vote (outside the browser) makes it 3 of 5.
    for page, text in ((ann, "Dan has been **very** quiet."), (bob, "I agree, Dan it is.")):
        page.goto(url)
        page.get_by_label("Your post").fill(text)
        page.get_by_role("button", name="Post").click()
        expect(page.locator(".post").last).to_contain_text(text.replace("**", ""))
    expect(ann.locator(".post strong", has_text="very")).to_be_visible()  # Markdown rendered
    for page in (ann, bob):
        page.goto(url)
        page.get_by_label("Your vote").select_option("dan")
        page.get_by_role("button", name="Vote", exact=True).click()
    expect(bob.locator("#votes-title").locator("..")).to_contain_text("L-1")
    shot(bob, "game-day-vote-count")
    services.vote_cast(game=game, user=users["cat"], target="dan")

    # The lynch happened at once: night falls and the public thread says so.
    ann.goto(url)
    expect(ann.get_by_text(re.compile("Night 1"))).not_to_have_count(0)
    expect(ann.locator(".post--system").filter(has_text="Dan")).not_to_have_count(0)
    expect(ann.get_by_label("Your post")).to_have_count(0)  # nobody posts at night
    shot(ann, "game-night")

    # Night 1: the Priest checks Bob; the Coven (Bob) votes to kill Eve.
    ann.goto(f"{url}role/")
    form = _fieldset(ann, "Check whether a player is in the Coven")
    form.get_by_label("Player").select_option("bob")
    form.locator("xpath=..").get_by_role("button", name="Submit").click()
    expect(ann.get_by_role("button", name="Withdraw")).to_be_visible()  # it stands, changeable
    shot(ann, "role-priest-night")
    bob.goto(f"{url}role/")
    form = _fieldset(bob, "The Coven's kill vote")
    form.get_by_label("Player").select_option("eve")
    form.locator("xpath=..").get_by_role("button", name="Submit").click()
    expect(bob.get_by_text(re.compile("Eve"))).not_to_have_count(0)
    shot(bob, "role-coven-night")

    services.phase_advance(game=game, by=host)  # the night's deadline

    # The morning: Eve's death is announced; Ann learns that Bob is in the Coven.
    ann.goto(url)
    expect(ann.locator(".post--system").filter(has_text="Eve")).not_to_have_count(0)
    shot(ann, "game-morning")
    ann.goto(f"{url}role/")
    expect(ann.get_by_text(re.compile(r"Bob.*in the Coven"))).not_to_have_count(0)
    shot(ann, "role-morning-result")
    bob.goto(f"{url}role/")
    expect(bob.get_by_text(re.compile(r"in the Coven"))).to_have_count(0)  # not Bob's to see
