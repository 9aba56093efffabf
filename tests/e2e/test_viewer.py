"""The game viewer in a real browser (issue 31): a finished game stepped through from its
first moment to its end in all three views, with the arrow keys and with the links, the
views switched at the same moment, and the pages read at 390 px. Every page is checked
with axe as it loads, in both themes (conftest.py)."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory
from tests.games.viewer.viewer_game import afterlife_users, finish


@pytest.fixture
def finished(db):
    return finish(UserFactory(player_name="Mod"), afterlife_users())


def _step(page) -> tuple[str, int]:
    """(view, step) of the page's address."""
    found = re.search(r"/viewer/([\w-]+)/(\d+)/$", page.url)
    assert found, page.url
    return found.group(1), int(found.group(2))


def _walk_with_keys(page, view):
    """From the page's step to the view's last with the right arrow key; then back one with
    the left."""
    page.wait_for_load_state()  # the keys' script is deferred: loaded with the page
    seen = [_step(page)]
    while page.locator("#viewer-next").count():
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(rf"/viewer/{view}/{seen[-1][1] + 1}/$"))
        seen.append(_step(page))
    last = seen[-1][1]
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(rf"/viewer/{view}/{last - 1}/$"))
    return last


@pytest.mark.django_db(transaction=True)
def test_the_viewer_steps_a_finished_game_through_in_three_views(
    browser, live_server, finished, shot
):
    game, base = finished, live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()

    # From the reveal to the first step, "as everyone saw it"; keys to the end.
    page.goto(f"{base}/games/{game.pk}/reveal/")
    page.locator(f'a[href="/games/{game.pk}/viewer/public/1/"]').first.click()
    assert _step(page) == ("public", 1)
    expect(page.locator("#viewer-prev")).to_have_count(0)
    last_public = _walk_with_keys(page, "public")
    shot(page, "viewer-public")

    # "Everything" at the same moment, then back to its first step by the phases' list and
    # on to the end with the Next link.
    page.locator('a[data-view="everything"]').click()
    view, at = _step(page)
    assert view == "everything" and at >= last_public - 1
    page.locator(".viewer-phases summary").click()
    page.locator(".viewer-phases a").first.click()
    assert _step(page) == ("everything", 1)
    steps = 1
    while page.locator("#viewer-next").count():
        page.locator("#viewer-next").click()
        steps += 1
        assert _step(page) == ("everything", steps)
    expect(page.locator(".viewer-cards")).to_be_visible()
    shot(page, "viewer-everything")

    # "As Cat saw it", chosen in the seats' list, from its first step by keys.
    page.locator("#viewer-seat").select_option("seat-cat")
    page.locator(".viewer-seat-form button").click()
    assert _step(page)[0] == "seat-cat"
    page.goto(f"{base}/games/{game.pk}/viewer/seat-cat/1/")
    _walk_with_keys(page, "seat-cat")
    expect(page.locator(".viewer-role")).to_be_visible()
    shot(page, "viewer-seat")

    # The last step links back to the reveal.
    page.locator(".eyebrow a").first.click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/reveal/$"))
    context.close()

    # At 390 px every view reads without sideways scrolling.
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    small = phone.new_page()
    for view in ("public", "everything", "seat-cat", "seat-gus"):
        small.goto(f"{base}/games/{game.pk}/viewer/{view}/1/")
        small.wait_for_load_state()
        small.keyboard.press("ArrowRight")
        small.wait_for_url(re.compile(rf"/viewer/{view}/2/$"))
        wide = small.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, (view, wide)
        expect(small.locator("#viewer-where")).to_be_in_viewport()
    small.goto(f"{base}/games/{game.pk}/viewer/everything/{steps}/")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    shot(small, "viewer-390")
    phone.close()
