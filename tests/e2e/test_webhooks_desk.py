"""The desk's chat webhooks in a real browser: the moderator adds a Discord channel (a
Discord-shaped server on loopback), sends a test, and reads it as sent; a signed
endpoint's secret is shown once. Every page is checked by axe-core (conftest.AxeWatch).
The sender runs in this process (the sweep's code), as the webhooks worker would."""

import pytest
from playwright.sync_api import expect

from games.models import WebhookEndpoint
from games.webhooks.secrets import unseal
from games.webhooks.services import send
from tests.e2e.conftest import BROWSER_CAST, assert_accessible, sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.conftest import make_game, users_for
from tests.games.webhooks.servers import Server
from witchhunt.pseudo import unmarked


@pytest.fixture
def discord(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the server is on loopback
    server = Server("discord").start()
    yield server
    server.stop()


@pytest.mark.django_db(transaction=True)
def test_the_moderator_connects_a_discord_channel_and_sends_a_test(
    browser, live_server, discord, shot
):
    host = UserFactory(player_name="Host")
    game = make_game(host, users_for(BROWSER_CAST), BROWSER_CAST, title="Village on Discord")
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, live_server.url, host.email, DEFAULT_PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/desk/")
    section = page.locator("section", has=page.get_by_role("heading", name="Chat and webhooks"))
    section.get_by_label("Where").select_option("discord")
    section.get_by_label("Address").fill(f"{discord.base}/api/webhooks/42/secret-token")
    section.get_by_role("button", name="Add the destination").click()
    expect(page.get_by_text("The destination is added.")).to_be_visible()
    heading = page.get_by_role("heading", name="Discord · 127.0.0.1")
    expect(heading).to_be_visible()
    assert "secret-token" not in page.content()

    page.get_by_role("button", name="Send a test").click()
    expect(page.get_by_text("A test is on its way.")).to_be_visible()
    send.deliveries_sweep()  # what the webhooks worker does
    [posted] = discord.posted
    title = unmarked(posted["embeds"][0]["title"])  # the pseudo-locale's run marks words
    assert title == "Village on Discord · a test from the moderator’s desk"
    page.reload()
    expect(page.get_by_role("cell", name="sent", exact=True)).to_be_visible()
    assert_accessible(page)
    shot(page, "desk-webhooks")

    page.goto(f"{live_server.url}/games/{game.pk}/desk/")
    section.get_by_label("Where").select_option("generic")
    section.get_by_label("Address").fill(f"{discord.base}/signed")
    section.get_by_role("button", name="Add the destination").click()
    secret = unseal(WebhookEndpoint.objects.get(kind="generic").secret_sealed)
    expect(page.get_by_label("Secret")).to_have_value(secret)
    assert_accessible(page)
    page.get_by_role("link", name="Back to the desk").click()
    assert secret not in page.content()
