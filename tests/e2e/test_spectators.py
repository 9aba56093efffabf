"""A spectator follows a whole game one phase behind, in a real browser (issue 31): the host
allows spectators on the desk before the start; Sue presses "Spectate", sees every card,
the rooms and the night's actions a phase late, and writes in the spectators' thread, which
a player cannot reach. Screenshot: spectators.png."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for


def _lynch(game, users, target):
    """The living vote for `target` until the day ends (W-4)."""
    from games.mapping import engine_state

    game.refresh_from_db()
    voters = [s.name for s in engine_state(game).seats if s.living and s.name != target]
    for voter in voters:
        game.refresh_from_db()
        if game.is_night or game.status == Game.Status.FINISHED:
            break
        services.vote_cast(game=game, user=users[voter], target=target)
    game.refresh_from_db()
    return game


def _row(page, name):
    return page.locator(".card-table").get_by_role("row", name=re.compile(name))


@pytest.mark.django_db(transaction=True)
def test_a_spectator_follows_a_whole_game_one_phase_behind(browser, live_server, shot):
    users = users_for(BROWSER_CAST)
    host = UserFactory(player_name="Host")
    sue = UserFactory(player_name="Sue")
    game = make_game(host, users, BROWSER_CAST, title="Watched", seed=5, start=False)
    base = live_server.url

    # The host allows spectators, one phase behind, on the desk before the start.
    mod = signed_in_page(browser, base, host)
    mod.goto(f"{base}/games/{game.pk}/desk/")
    panel = mod.locator("#spectators")
    panel.get_by_label("Allow spectators").check()
    panel.get_by_label("What spectators see").select_option("phase")
    panel.get_by_role("button", name="Save the spectators’ settings").click()
    expect(mod.locator(".message--success")).to_be_visible()

    # Sue follows it from the game page, and it starts.
    watcher = signed_in_page(browser, base, sue)
    watcher.goto(f"{base}/games/{game.pk}/")
    watcher.get_by_role("button", name="Spectate").click()
    expect(watcher.locator(".message--success")).to_be_visible()
    game = services.game_start(game=game, by=host)
    services.room_post(game=game, user=users["fay"], room="coven", body="Eve-tonight-3311")

    # Day 1: every card as dealt; the spectators' thread.
    watcher.goto(f"{base}/games/{game.pk}/")
    watcher.get_by_role("link", name="What spectators see").click()
    expect(watcher.locator("#spectator-cut")).to_contain_text("One phase behind")
    expect(_row(watcher, "Bob")).to_contain_text("Elder Witch")
    expect(_row(watcher, "Eve")).to_contain_text("Oracle")
    watcher.get_by_role("link", name="The spectators’ thread").first.click()
    watcher.get_by_label("Your post").fill("Bob and Fay: the *Coven*.")
    watcher.get_by_role("button", name="Post").click()
    expect(watcher.locator(".post em", has_text="Coven")).to_be_visible()
    thread_url = watcher.url

    # A player cannot reach the spectators' thread, nor their page.
    ann = signed_in_page(browser, base, users["ann"])
    assert ann.goto(thread_url).status == 404
    assert ann.goto(f"{base}/games/{game.pk}/spectate/").status == 404

    # Night 1: the page still shows Day 1's start (Bob alive; the Coven's post unseen).
    game = _lynch(game, users, "bob")
    assert game.phase == "night 1"
    watcher.goto(f"{base}/games/{game.pk}/spectate/")
    expect(_row(watcher, "Bob")).to_contain_text("Alive")
    services.action_submit(game=game, user=users["fay"], action="coven", target="eve")
    watcher.reload()
    expect(watcher.locator("#log-title").locator("..")).not_to_contain_text("kill Eve")

    # Day 2: as Night 1 began: Bob dead, the Coven's Day 1 post shown, its night vote not.
    services.phase_advance(game=game, by=host)
    game.refresh_from_db()
    assert game.phase == "day 2"
    watcher.reload()
    expect(_row(watcher, "Bob")).not_to_contain_text("Alive")
    expect(_row(watcher, "Eve")).to_contain_text("Alive")
    expect(watcher.locator("#log-title").locator("..")).not_to_contain_text("kill Eve")
    watcher.get_by_role("link", name="The Coven").click()
    expect(watcher.locator(".post").first).to_contain_text("Eve-tonight-3311")
    watcher.go_back()

    # Night 2: Night 1 is past: the Coven's vote and Eve's death are shown.
    game = _lynch(game, users, "dan")
    assert game.phase == "night 2"
    watcher.reload()
    expect(watcher.locator("#log-title").locator("..")).to_contain_text("kill Eve")
    expect(_row(watcher, "Eve")).not_to_contain_text("Alive")
    shot(watcher, "spectators")

    # To the end: the town lynches Fay (her extra life spent first, W-29); the page then
    # shows everything, and the thread stays the spectators'.
    while game.status != Game.Status.FINISHED:
        if game.is_night:
            services.phase_advance(game=game, by=host)
            game.refresh_from_db()
        else:
            game = _lynch(game, users, "fay")
    watcher.reload()
    expect(watcher.locator("#spectator-cut")).to_contain_text("The game is over")
    expect(_row(watcher, "Fay")).not_to_contain_text("Alive")
    watcher.goto(thread_url)
    expect(watcher.locator(".post em", has_text="Coven")).to_be_visible()
    assert ann.goto(thread_url).status == 404
