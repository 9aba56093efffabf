"""The rooms and the desk in a real browser (issue 7): the Coven talks in its room, a dead
Angel protects from the afterlife and the morning shows the survival; the moderator
advances the game and replaces a player on the desk, and the newcomer sees the role page.
Screenshots: docs/screenshots/room-coven.png, afterlife.png, desk.png, desk-replaced.png."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST


@pytest.fixture
def night_1(db):
    """Night 1 of a six-seat game: the town lynched Dan (now an Angel); Fay has written to
    the Coven."""
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    game = make_game(
        host, users, CAST, title="Browser rooms", seed=5, options={"public_setup": False}
    )
    services.room_post(game=game, user=users["fay"], room="coven", body="Who *first*?")
    for voter in ("ann", "cat", "eve", "fay"):
        services.vote_cast(game=game, user=users[voter], target="dan")
    game.refresh_from_db()
    assert game.phase == "night 1"
    return game, users, host


@pytest.mark.django_db(transaction=True)
def test_the_coven_meets_and_a_dead_angel_protects_from_the_afterlife(
    browser, live_server, night_1, shot
):
    game, users, host = night_1
    url = f"{live_server.url}/games/{game.pk}/"

    # Bob reaches the Coven's room from his seat panel and writes in it.
    bob = signed_in_page(browser, live_server.url, users["bob"])
    bob.goto(url)
    bob.get_by_role("link", name="The Coven").click()
    expect(bob.get_by_role("heading", name="The Coven", level=1)).to_be_visible()
    expect(bob.locator(".post").first).to_contain_text("Who first?")
    bob.get_by_label("Your post").fill("Eve. She is the **Oracle**, I am sure.")
    bob.get_by_role("button", name="Post").click()
    expect(bob.locator(".post strong", has_text="Oracle")).to_be_visible()
    for user in (users["bob"], users["fay"]):
        services.action_submit(game=game, user=user, action="coven", target="eve")
    bob.reload()
    events = bob.locator("#group-events-title").locator("..")
    expect(events).to_contain_text("Coven: You vote to kill Eve.")
    expect(events).to_contain_text("Coven: Fay votes to kill Eve.")
    shot(bob, "room-coven")

    # Dan, dead, finds the afterlife: every card, and his actions on the role page.
    dan = signed_in_page(browser, live_server.url, users["dan"])
    dan.goto(url)
    dan.get_by_role("link", name="The afterlife").first.click()
    expect(dan.get_by_role("heading", name="The afterlife", level=1)).to_be_visible()
    cards = dan.locator(".card-table")
    expect(cards.get_by_role("row", name=re.compile("Bob"))).to_contain_text("Elder Witch")
    expect(dan.locator(".log").last).to_contain_text("Coven: Fay votes to kill Eve.")
    dan.get_by_label("Your post").fill("I can see *everything* from here.")
    dan.get_by_role("button", name="Post").click()
    expect(dan.locator(".post em", has_text="everything")).to_be_visible()
    dan.get_by_role("link", name="The Coven").click()  # read-only: no form
    expect(dan.locator(".post").last).to_contain_text("She is the Oracle")
    expect(dan.get_by_label("Your post")).to_have_count(0)
    dan.get_by_role("link", name="The afterlife").first.click()
    shot(dan, "afterlife")
    dan.get_by_role("link", name="Your role and actions").click()
    form = dan.locator("fieldset", has=dan.locator("legend", has_text="Protect"))
    form.get_by_label("Player").select_option("eve")
    form.get_by_role("button", name="Submit").click()
    expect(dan.locator(".message--success")).to_contain_text("Eve")

    services.phase_advance(game=game, by=host)  # the night's deadline

    # The morning: Eve survived the Coven, and the living never see the afterlife's thread.
    ann = signed_in_page(browser, live_server.url, users["ann"])
    for page in (dan, ann):
        page.goto(url)
        expect(page.locator(".post--system").filter(has_text="Eve survived")).to_have_count(1)
    expect(ann.get_by_text("I can see everything")).to_have_count(0)
    expect(ann.get_by_role("link", name="The afterlife")).to_have_count(0)
    assert ann.goto(f"{url}afterlife/").status == 404


@pytest.mark.django_db(transaction=True)
def test_the_moderator_replaces_a_player_on_the_desk(browser, live_server, night_1, shot):
    game, users, host = night_1
    url = f"{live_server.url}/games/{game.pk}/"
    newbie = UserFactory(player_name="Newbie")

    mod = signed_in_page(browser, live_server.url, host)
    mod.goto(url)
    mod.get_by_role("link", name="The moderator’s desk").click()
    expect(mod.get_by_role("heading", name="The moderator’s desk")).to_be_visible()
    expect(mod.locator(".activity-table")).to_contain_text("Gambler")
    shot(mod, "desk")

    mod.get_by_role("button", name="Advance now").click()
    expect(mod.get_by_role("heading", name="End Night 1 now?")).to_be_visible()
    mod.get_by_role("button", name="End Night 1 now").click()
    expect(mod.locator(".message--success")).to_contain_text("Night 1 has ended.")
    mod.get_by_label("Seat", exact=True).select_option("cat")
    mod.get_by_label("New player").fill("NEWBIE")  # a host names players by player name
    mod.get_by_role("button", name="Replace").click()
    expect(mod.locator(".message--success")).to_contain_text("Newbie replaces Cat")
    shot(mod, "desk-replaced")
    mod.goto(url)
    expect(mod.locator(".post--moderator").last).to_contain_text("Newbie replaces Cat.")

    new = signed_in_page(browser, live_server.url, newbie)
    new.goto(url)
    new.get_by_role("link", name="Your role").first.click()
    expect(new.get_by_role("heading", name="Gambler")).to_be_visible()
    old = signed_in_page(browser, live_server.url, users["cat"])
    assert old.goto(f"{url}role/").status == 404
