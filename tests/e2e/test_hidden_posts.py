"""The moderator hides a post in a real browser: Ann quotes her card in the day thread,
the host follows the post's Hide link to the desk and hides it with a reason, Cat's open
page swaps the text for the reason without a reload (the live refresh), so does a fresh
load (the cached page too), and the desk shows it again. Screenshot: desk-hidden.png."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

LEAK = "My role page says Priest, word for word"
REASON = "Please do not quote your role page."


@pytest.mark.django_db(transaction=True)
def test_the_host_hides_a_post_and_shows_it_again(browser, live_server, shot, settings):
    settings.LIVE_REFRESH_SECONDS = 1
    users = users_for(BROWSER_CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, BROWSER_CAST, title="Browser moderation", seed=5)
    number = services.post_create(game=game, user=users["ann"], body=LEAK).number
    url = f"{live_server.url}/games/{game.pk}/"

    cat = signed_in_page(browser, live_server.url, users["cat"])
    cat.goto(url)
    expect(cat.locator(f"#p{number}")).to_contain_text(LEAK)

    # The host goes from the post's "Hide…" link to the desk's form, the post filled in.
    desk = signed_in_page(browser, live_server.url, host)
    desk.goto(url)
    desk.locator(f"#p{number}").get_by_role("link", name="Hide…").click()
    form = desk.locator("form", has=desk.get_by_role("button", name="Hide the post"))
    expect(form.get_by_label("Thread")).to_have_value("public")
    expect(form.get_by_label("Post number")).to_have_value(str(number))
    form.get_by_label("Reason").fill(REASON)
    form.get_by_role("button", name="Hide the post").click()
    expect(desk.locator(".message--success")).to_contain_text(f"Post #{number} is hidden")
    hidden = desk.locator(".hidden-posts li")
    expect(hidden).to_contain_text(LEAK)  # the text stays, for the moderator alone
    expect(hidden).to_contain_text(REASON)
    shot(desk, "desk-hidden")

    # Cat's page, open all along, swaps the text for the reason within the poll's interval.
    cat.evaluate("window.liveMarker = 'no reload'")
    post = cat.locator(f"#p{number}")
    expect(post).to_contain_text(f"The moderator hid this post: {REASON}", timeout=5000)
    expect(post).not_to_contain_text(LEAK)
    expect(post.get_by_role("link", name="Quote")).to_have_count(0)
    expect(cat.locator("#live-status")).to_have_text("The moderator hid a post.")
    assert cat.evaluate("window.liveMarker") == "no reload"
    cat.reload()
    expect(post).to_contain_text(f"The moderator hid this post: {REASON}")
    expect(post).not_to_contain_text(LEAK)
    expect(post.get_by_role("link", name="Quote")).to_have_count(0)

    desk.get_by_role("button", name=f"Show #{number} again").click()
    expect(desk.locator(".message--success")).to_contain_text("shows again")
    expect(desk.get_by_text("No post is hidden.")).to_be_visible()
    cat.reload()
    expect(cat.locator(f"#p{number}")).to_contain_text(LEAK)
