"""Coming back to a game in a real browser (issue 15): a player reads the first page, goes
away while the others post and move their votes, and comes back: the game list says how
many posts are new, opening the game lands on the first unread post, "since you last read"
words the vote moves with their wagons, and "Mark all read" clears it all. axe-core checks
every page (conftest). Screenshot: docs/screenshots/since-you-last-read.png."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Post
from games.services.posts import post_body
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST


def _chatter(game, users, n, start):
    """n posts after the thread's last, the players in turn: "Chatter 51: …"."""
    seats = {s.user_id: s for s in game.seats.all()}
    names = [u for u in users.values() if u.pk in seats]
    first = Post.objects.filter(game=game, thread="public").count()
    posts = []
    for i in range(1, n + 1):
        user = names[(start + i) % len(names)]
        body = post_body(f"Chatter {first + i}: nothing to see here.")
        posts.append(
            Post(game=game, thread="public", number=first + i, kind="player",
                 seat=seats[user.pk], author=user, body=body.text, body_html=body.html,
                 phase=game.phase)  # fmt: skip
        )
    Post.objects.bulk_create(posts)


@pytest.fixture
def away(db):
    """Day 1 of a six-seat game whose thread has a page and more to read."""
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, cast=CAST, title="Coming back", seed=5)
    _chatter(game, users, 59, 0)  # 60 posts with the morning's announcement: two pages
    services.vote_cast(game=game, user=users["cat"], target="dan")
    return game, users


@pytest.mark.django_db(transaction=True)
def test_coming_back_to_unread_posts(browser, live_server, away, shot):
    game, users = away
    ann = signed_in_page(browser, live_server.url, users["ann"])
    lobby = f"{live_server.url}/games/"
    url = f"{live_server.url}/games/{game.pk}/"

    # The first visit: page 1 from the top; she reads it (her mark moves to #50).
    ann.goto(url)
    expect(ann.locator(".read-bar")).to_contain_text("You have not read this thread before.")
    expect(ann.locator("#p50")).to_be_visible()

    # While she is away: sixty posts (page 2 and some of page 3), and the vote moves.
    _chatter(game, users, 60, 1)
    services.vote_cast(game=game, user=users["eve"], target="dan")
    services.vote_cast(game=game, user=users["cat"], target="eve")

    # The game list: the posts she has not read (the rest of page 2 and the new ones).
    last = Post.objects.filter(game=game, thread="public").count()
    unread = last - 50
    ann.goto(lobby)
    row = ann.get_by_role("row", name=re.compile("Coming back"))
    expect(row.locator(".badge--new")).to_have_text(re.compile(rf"^{unread} new"))

    # Opening the game from its row lands on her first unread post, #51, on page 2 (the
    # notice above the table that her vote is awaited links the game's page: issue 31).
    row.get_by_role("link", name="Coming back", exact=True).click()
    ann.wait_for_url(re.compile(r"\?page=2#p51$"))
    expect(ann.locator("#p51")).to_be_in_viewport()
    expect(ann.locator(".read-bar")).to_contain_text(f"{unread} new since you last read, from #51")
    expect(ann.get_by_role("link", name="Jump to latest")).to_be_visible()

    # "Since you last read": the vote moves in words, with their wagons (W-4: 4 of 6).
    ann.get_by_role("link", name="Since you last read").click()
    expect(ann.get_by_role("heading", name="Since you last read", level=1)).to_be_visible()
    moves = ann.locator("#since-votes").locator("..")
    expect(moves).to_contain_text("Eve voted for Dan; Dan is now L-2.")
    expect(moves).to_contain_text("Cat moved from Dan to Eve; Eve is now L-3, Dan L-3.")
    expect(ann.locator("body")).to_contain_text("You have not voted today.")
    shot(ann, "since-you-last-read")

    # Page 2 was read; the rest is still unread: "Mark all read" clears the thread.
    ann.goto(f"{url}?page=2")
    ann.get_by_role("button", name="Mark all read").click()
    expect(ann.locator(".message--success")).to_contain_text("The thread is marked read.")
    expect(ann.locator(".read-bar")).to_contain_text("No new posts since you last read.")
    ann.goto(lobby)
    row = ann.get_by_role("row", name=re.compile("Coming back"))
    expect(row.locator(".badge--new")).to_have_count(0)

    # Opening it again lands on the latest post.
    row.get_by_role("link", name="Coming back", exact=True).click()
    ann.wait_for_url(re.compile(rf"\?page=\d+#p{last}$"))
    expect(ann.locator(f"#p{last}")).to_be_in_viewport()
