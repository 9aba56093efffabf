"""A game played in a real browser tells its whole story to chat (issue 30): site-wide
destinations on loopback shaped as Discord, Slack and Matrix answer, and a generic endpoint
checks each delivery's Standard Webhooks signature. The moderator starts the game from its
page, the players post, vote and act in Chromium, the clock's sweep finds a deadline near,
and the webhooks' sender (the worker's code, run here) posts what happened: sign-ups open,
the start, each vote count (one Discord message edited in place per day), each phase's end
and beginning, the deadline near, and the end with the reveal's link. Nothing a visitor of
the public thread could not read is posted."""

import json
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from playwright.sync_api import expect
from standardwebhooks import Webhook

from games import services
from games.services.sweep import clock_sweep
from games.webhooks import story
from games.webhooks.services import send
from games.webhooks.services.endpoints import endpoint_add
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for
from tests.games.webhooks.servers import Server

CAST = BROWSER_CAST[:5]  # Ann the Priest, Bob the Coven's Judge, Cat, Dan, Eve
CARDS = ("Priest", "Judge", "Gambler", "Recluse", "Oracle", "Elder", "Holy")


@pytest.fixture
def servers(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # loopback is private
    settings.WEBHOOK_DEBOUNCE_SECONDS = 0  # each count goes at the next sweep
    settings.WEBHOOK_DEADLINE_NEAR = timedelta(days=30)  # every running deadline is near
    started = {kind: Server(kind).start() for kind in ("discord", "slack", "matrix", "generic")}
    yield started
    for server in started.values():
        server.stop()


def _site_wide(host, servers):
    """The four destinations an admin adds for the whole site (they hear every game)."""
    for kind, server in servers.items():
        options = {}
        address = f"{server.base}/api/webhooks/7/discord-token"
        if kind == "matrix":
            address, server.secret = server.base, "syt_token"
            options = {"room": "!room:example.org", "token": server.secret}
        elif kind != "discord":
            address = f"{server.base}/hooks/{kind}-path"
        _, secret = endpoint_add(
            game=None, user=host, kind=kind, address=address, events=story.EVENTS, **options
        )
        if secret:
            server.secret = secret


def _sent():
    """What the webhooks worker does: every due delivery sent."""
    send.deliveries_sweep()


def _vote(page, url, target):
    page.goto(url)
    page.get_by_label("Your vote").select_option(target)
    with page.expect_navigation():
        page.get_by_role("button", name="Vote", exact=True).click()


def _act(page, url, legend, target):
    page.goto(f"{url}role/")
    form = page.locator("fieldset", has=page.locator("legend", has_text=legend))
    form.get_by_label("Player").select_option(target)
    form.locator("xpath=..").get_by_role("button", name="Submit").click()
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_game_played_in_the_browser_tells_its_whole_story_to_chat(
    browser, live_server, servers
):
    cache.clear()  # the near deadline's marks of an earlier test
    host = UserFactory(player_name="Host", is_staff=True)
    users = users_for(CAST)
    _site_wide(host, servers)
    game = make_game(host, users, CAST, start=False, title="Village on chat", seed=11)
    url = f"{live_server.url}/games/{game.pk}/"

    # The moderator starts it from the game page.
    mod = signed_in_page(browser, live_server.url, host)
    mod.goto(url)
    mod.get_by_role("button", name="Start the game").click()
    expect(mod.get_by_text(re.compile("Day 1"))).not_to_have_count(0)
    _sent()

    # Day 1: a post, then three votes for Dan lynch him; the clock finds the deadline near.
    ann = signed_in_page(browser, live_server.url, users["ann"])
    bob = signed_in_page(browser, live_server.url, users["bob"])
    cat = signed_in_page(browser, live_server.url, users["cat"])
    ann.goto(url)
    ann.get_by_label("Your post").fill("Dan has been quiet.")
    ann.get_by_role("button", name="Post").click()
    expect(ann.locator(".post").last).to_contain_text("Dan has been quiet.")
    clock_sweep()
    _vote(ann, url, "dan")
    _sent()
    _vote(bob, url, "dan")
    _sent()
    _vote(cat, url, "dan")  # 3 of 5: the lynch, and night falls
    _sent()

    # Night 1: the Priest checks Bob; the Coven (Bob) kills Eve; the deadline comes.
    _act(ann, url, "Check whether a player is in the Coven", "bob")
    _act(bob, url, "The Coven's kill vote", "eve")
    _sent()
    services.phase_advance(game=game, by=host)  # the night's deadline
    _sent()

    # Day 2: Ann and Cat vote Bob, the last of the Coven: the Village wins.
    _vote(ann, url, "bob")
    _vote(cat, url, "bob")
    _sent()
    _sent()

    generic = servers["generic"]
    # Every generic delivery verifies with the endpoint's secret (the server refused none).
    assert generic.requests and all(
        Webhook(generic.secret).verify(seen.body, seen.headers) for seen in generic.requests
    )
    told = [seen.json()["type"] for seen in generic.requests]
    assert set(told) == set(story.EVENTS), told
    assert told[0] == "signups_open" and told[-1] == "game_ended"
    assert told.count("phase_ended") == 2 and told.count("game_started") == 1
    end = generic.requests[-1].json()["data"]
    assert end["url"].endswith(f"/games/{game.pk}/reveal/") or "/reveal" in end["url"]

    # Discord: one message per day's count, edited in place as the votes came.
    discord = servers["discord"]
    patches = [seen for seen in discord.requests if seen.method == "PATCH"]
    titles = [p["embeds"][0]["title"] for p in discord.posted]
    assert len([t for t in titles if "vote count" in t.lower()]) == 2, titles
    assert patches, "the vote count was posted anew instead of edited"
    assert all(p["allowed_mentions"] == {"parse": []} for p in discord.posted)
    # Slack and Matrix told the same story, each in its shape; Matrix never twice a txn.
    assert len(discord.posted) + len(patches) == len(told)  # a later count edits
    assert len(servers["slack"].posted) == len(told)  # a Slack webhook cannot edit
    matrix = servers["matrix"]
    assert all(m["msgtype"] == "m.notice" for m in matrix.posted)
    assert len(matrix.messages) == len(matrix.posted) == len(told)

    # Public words only: before the reveal, no card is named anywhere.
    before_end = [seen.body.decode() for seen in generic.requests[:-1]]
    for server in (discord, servers["slack"], matrix):
        before_end += [json.dumps(p) for p in server.posted[:-1]]
    for body in before_end:
        assert not any(card in body for card in CARDS), body
