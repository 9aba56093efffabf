"""Accessibility and how posts and the reveal read, in a real browser (issue 14).

Every page any end-to-end test loads is checked by axe-core (conftest.AxeWatch); the pages
here are those the other tests do not reach: sign-in and sign-up errors, a refused vote and
post, the rules pages, the lobby, the profile, the new-game form, the reveal and its rooms,
a 404. Then what axe cannot see: keyboard-only use, where focus lands after a refusal, the
vote form within a few Tab stops, posts' lists and images, the reveal on a phone."""

import re

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, assert_accessible, axe_violations, sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.conftest import make_game, users_for

CAST = BROWSER_CAST
LISTS_AND_IMAGE = (
    "My reads:\n- Ann town\n- Bob scum\n1. Cat\n2. Dan\n\n"
    "See ![votes by day](https://images.example/chart.png)"
)
# A moderator's announcement as hosts write them: lists, a long line of code, a long address.
ANNOUNCEMENT = (
    "**Table rules**\n- vote before the deadline\n- never quote a private room\n"
    "1. Day ends at 20:00\n2. Night ends at 08:00\n\n```\n" + "vote: " + "x" * 90 + "\n```\n"
    "Archive: https://forum.example/threads/" + "a" * 80
)


@pytest.fixture
def day_1(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    return make_game(host, users, CAST, title="Accessible village", seed=5), users, host


@pytest.fixture
def finished(day_1):
    """A finished game with a moderator's log: an announcement, a replacement, a lynch, a
    night with the Coven's talk and the afterlife's, and the moderator's stalemate."""
    game, users, host = day_1
    services.announcement_post(game=game, by=host, body=ANNOUNCEMENT)
    services.post_create(game=game, user=users["ann"], body=LISTS_AND_IMAGE)
    services.player_replace(
        game=game, seat_name="eve", new_user=UserFactory(player_name="Newbie"), by=host
    )
    for voter in ("ann", "bob", "cat", "fay"):
        services.vote_cast(game=game, user=users[voter], target="dan")
    services.room_post(game=game, user=users["bob"], room="coven", body="Who *first*?")
    services.room_post(game=game, user=users["dan"], room="afterlife", body="Hello, dead.")
    services.stalemate_declare(game=game, by=host)
    game.refresh_from_db()
    assert game.status == "finished"
    return game, users, host


def _signed_in(browser, live_server, user, width=1280, height=900):
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    sign_in(page, live_server.url, user.email, DEFAULT_PASSWORD)
    return page


def _focused(page):
    """What has the keyboard's focus: its tag, id, classes and text."""
    return page.evaluate(
        """() => { const el = document.activeElement;
          return {tag: el.tagName.toLowerCase(), id: el.id, cls: el.className,
                  text: el.innerText || "", role: el.closest("[role]")?.getAttribute("role")}; }"""
    )


# --- the check itself ------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_the_axe_check_reports_what_it_finds(page, live_server):
    """The check bites: a page with a picture without words and an unlabelled field fails,
    naming the rules, whether called by hand or run on a page as it loads."""
    page.goto(f"{live_server.url}/")
    assert_accessible(page)
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend",
             '<img src="/static/favicon.svg"><input type="text" aria-describedby="nowhere">')"""
    )
    found = "\n".join(axe_violations(page))
    assert "image-alt" in found and "label" in found, found
    assert 'aria-describedby names no element "nowhere"' in found, found

    # A page served with the same faults, as it loads: the test's next call to the browser
    # fails with the rules and the page.
    page.route(
        "**/broken/",
        lambda route: route.fulfill(
            content_type="text/html",
            body="<!DOCTYPE html><html lang='en'><title>x</title><main><img src='/x.png'></main>",
        ),
    )
    page.goto(f"{live_server.url}/broken/")
    with pytest.raises(AssertionError, match=r"(?s)axe-core on .*/broken/.*image-alt"):
        page.title()


@pytest.mark.django_db(transaction=True)
def test_the_axe_check_reads_each_page_in_the_dark_theme_too(page, live_server):
    """A page whose words are readable in the light theme but not in the dark one (the
    browser's preference) fails the check as it loads, naming the dark theme."""
    page.route(
        "**/dark-only/",
        lambda route: route.fulfill(
            content_type="text/html",
            body="<!DOCTYPE html><html lang='en'><title>x</title><style>"
            "p { color: #1f1a24; background: #fff; }"
            "@media (prefers-color-scheme: dark) { p { color: #3a3a3a; background: #222; } }"
            "</style><main><p translate='no'>Words in the dark</p></main>",  # not ours to word
        ),
    )
    page.goto(f"{live_server.url}/dark-only/")
    with pytest.raises(AssertionError, match=r"(?s)/dark-only/.*\[dark\] color-contrast") as failed:
        page.title()
    assert "[light]" not in str(failed.value)
    # The check gave the page its light preference back.
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False


# --- pages the other tests do not reach --------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_the_rules_and_the_public_pages(page, live_server):
    """The rules pages: the index, and of each kind of page under it (a ruleset, a card, a
    type…) the first it links to; then the lobby, sign-up, password reset and a 404."""
    base = live_server.url
    page.goto(f"{base}/rules/")
    paths = page.locator("main a[href^='/rules/']").evaluate_all(
        "links => links.map((a) => a.pathname)"
    )
    kinds = {}
    for path in paths:  # every ruleset's page; of its card pages (…/cards/priest/) the first
        parts = path.strip("/").split("/")
        kinds.setdefault(path if len(parts) <= 2 else (parts[1], parts[2]), path)
    assert len(kinds) >= 4, paths
    for path in kinds.values():
        page.goto(base + path)
        expect(page.locator("h1")).to_be_visible()
        assert_accessible(page)
    for path in ("/games/", "/accounts/signup/", "/accounts/password/reset/", "/no-such-page/"):
        page.goto(base + path)
        assert_accessible(page)


@pytest.mark.django_db(transaction=True)
def test_a_wrong_password_is_announced_and_focused(page, live_server):
    user = UserFactory(player_name="Forgetful")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Email").fill(user.email)
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    error = page.get_by_role("alert")
    expect(error).to_contain_text("not correct")
    # The deferred script moves the focus once the page is parsed: the alert can be read
    # a moment before, so wait for the focus to land (on a slow machine it is not yet).
    expect(page.locator("#main .errorlist").first).to_be_focused()
    focused = _focused(page)
    assert "errorlist" in focused["cls"] and "not correct" in focused["text"], focused
    assert_accessible(page)


@pytest.mark.django_db(transaction=True)
def test_a_field_in_error_has_the_focus_after_sign_up(page, live_server):
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Email").fill("newcomer@example.com")
    page.get_by_label("Player name").fill("Newcomer")
    for field in page.locator("input[type=password]").all():
        field.fill("short")  # too short: the password is refused
    page.locator("main form button[type=submit]").click()
    invalid = page.locator("[aria-invalid=true]")
    expect(invalid.first).to_be_focused()
    # Its error is read with it: the error's id is in the field's description.
    described = invalid.first.get_attribute("aria-describedby")
    assert described and page.locator(f"#{described.split()[-1]}").inner_text()
    assert_accessible(page)


@pytest.mark.django_db(transaction=True)
def test_signed_in_pages_and_the_new_game_form(browser, live_server, day_1):
    game, users, host = day_1
    host.user_permissions.add(Permission.objects.get(codename="add_game"))  # a host
    page = _signed_in(browser, live_server, host)
    for path in ("/accounts/profile/", "/games/new/", f"/games/{game.pk}/desk/"):
        page.goto(live_server.url + path)
        assert_accessible(page)
    page.goto(f"{live_server.url}/games/new/")
    page.get_by_role("button", name="Create the game").click()  # nothing filled in
    expect(page.locator(".problems").first).to_be_focused()


# --- the keyboard ------------------------------------------------------------------------------
def _tab_until(page, name, limit):
    """Press Tab until the focused element's text is `name`, at most `limit` times."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if _focused(page)["text"].strip() == name:
            return
    raise AssertionError(f"{name!r} not reached in {limit} Tab stops")


@pytest.mark.django_db(transaction=True)
def test_vote_and_post_by_keyboard_alone(browser, live_server, day_1):
    """Tab and Enter (and a letter to pick from the list) vote and post; on a wide screen
    with a long thread the vote form is a few Tab stops from the top."""
    game, users, host = day_1
    for n in range(30):  # a long day: every post has its Reply, Quote and filter links
        services.post_create(
            game=game, user=users["bob"], body=f"Post {n}: I am [town](https://a.example)."
        )
    ann = _signed_in(browser, live_server, users["ann"])
    ann.goto(f"{live_server.url}/games/{game.pk}/")
    expect(ann.get_by_role("link", name="Vote count", exact=True)).to_be_visible()
    _tab_until(ann, "Vote count", 10)  # the menu, the rulings revision, then the page's links
    ann.keyboard.press("Enter")
    ann.keyboard.press("Tab")
    assert _focused(ann)["id"] == "vote-target"
    ann.keyboard.type("Dan")
    ann.keyboard.press("Tab")
    assert _focused(ann)["text"].strip() == "Vote"
    ann.keyboard.press("Enter")
    expect(ann.locator(".vote-count li", has_text="Dan")).to_contain_text("Ann")

    # From the top: the game's own address would land on her latest post read (issue 15).
    ann.goto(f"{live_server.url}/games/{game.pk}/?page=1")
    _tab_until(ann, "Write a post", 13)
    ann.keyboard.press("Enter")
    ann.keyboard.press("Tab")
    assert _focused(ann)["tag"] == "textarea"
    ann.keyboard.type("Typed without a mouse.")
    ann.keyboard.press("Tab")
    assert _focused(ann)["text"].strip() == "Post"
    ann.keyboard.press("Enter")
    expect(ann.locator(".post").last).to_contain_text("Typed without a mouse.")


# --- refusals: the reason has the focus, and nothing changed ----------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_refused_vote_and_a_refused_post_are_focused(browser, live_server, day_1):
    game, users, host = day_1
    url = f"{live_server.url}/games/{game.pk}/"
    ann = _signed_in(browser, live_server, users["ann"])
    ann.goto(url)
    too_deep = "> " * 40 + "nested"
    ann.get_by_label("Your post").fill(too_deep)
    ann.get_by_role("button", name="Post").click()
    # The refusal redirects to the thread (a reload must not post again): once it is there,
    # its reason has the focus.
    expect(ann.locator("#post-form .errorlist").first).to_be_visible()
    ann.wait_for_load_state()
    focused = _focused(ann)
    assert "errorlist" in focused["cls"] and "at most" in focused["text"], focused
    assert focused["role"] == "alert"
    expect(ann.get_by_label("Your post")).to_have_value(too_deep)  # the text is kept

    ann.goto(url)  # the day's page, then night falls before Ann votes
    for voter in ("bob", "cat", "eve", "fay"):
        services.vote_cast(game=game, user=users[voter], target="dan")
    ann.get_by_label("Your vote").select_option("bob")
    ann.get_by_role("button", name="Vote", exact=True).click()
    error = ann.locator(".message--error")
    expect(error).to_be_focused()
    expect(error).to_have_attribute("role", "alert")

    # A message after a redirect that went well has the focus too, as a status.
    ann.goto(f"{url}role/")
    form = ann.locator("fieldset", has=ann.locator("legend", has_text="Check"))
    form.get_by_label("Player").select_option("bob")
    form.locator("xpath=..").get_by_role("button", name="Submit").click()
    status = ann.locator(".message--success")
    expect(status).to_have_attribute("role", "status")
    expect(ann.locator(".messages")).to_be_focused()


# --- the post box, posts' lists and images ----------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_posts_show_lists_as_typed_and_images_as_links(browser, live_server, day_1):
    game, users, host = day_1
    services.post_create(game=game, user=users["bob"], body=LISTS_AND_IMAGE)
    ann = _signed_in(browser, live_server, users["ann"])
    asked = []
    ann.on("request", lambda request: asked.append(request.url))
    ann.goto(f"{live_server.url}/games/{game.pk}/")

    body = ann.locator(".post__body").filter(has_text="My reads")
    bullets, numbers = body.locator("ul"), body.locator("ol")
    expect(bullets.locator("li")).to_have_text(["Ann town", "Bob scum"])
    expect(numbers.locator("li")).to_have_text(["Cat", "Dan"])
    assert bullets.evaluate("el => getComputedStyle(el).listStyleType") == "disc"
    assert numbers.evaluate("el => getComputedStyle(el).listStyleType") == "decimal"
    image = body.get_by_role("link", name="Image: votes by day")
    expect(image).to_have_attribute("href", "https://images.example/chart.png")
    expect(body.locator("img")).to_have_count(0)
    assert not [url for url in asked if "images.example" in url]

    # The post box's description names help that exists, and reads as the field's.
    box = ann.get_by_label("Your post")
    expect(box).to_have_accessible_description(re.compile("Markdown"))


# --- the reveal on a phone ---------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_the_reveal_reads_on_a_phone(browser, live_server, finished, shot):
    game, users, host = finished
    page = _signed_in(browser, live_server, users["ann"], width=390, height=844)
    page.goto(f"{live_server.url}/games/{game.pk}/reveal/")
    log = page.locator(".moderator-log")
    expect(log).to_contain_text("Newbie replaces Eve")
    expect(log).to_contain_text("Table rules")
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    # What sticks out, to name in the failure (a wide table scrolls inside its own wrapper).
    wide = page.evaluate("""() => [...document.querySelectorAll("main *")]
      .filter((el) => !el.closest(".table-wrap") && el.getBoundingClientRect().right > 390)
      .slice(0, 5).map((el) => `${el.tagName}.${el.className}`)""")
    assert sizes[0] <= sizes[1], f"the page scrolls sideways: {sizes}, {wide}"
    # Each act spans the width: its words are not squeezed into a sliver beside the date.
    for box in [e.bounding_box() for e in log.locator(".log__text").all()]:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert box["width"] > 300, box
    announcement = log.locator(".post__body").filter(has_text="Table rules")
    expect(announcement.locator("ul li")).to_have_count(2)
    expect(announcement.locator("ol li")).to_have_count(2)
    shot(page, "reveal-phone")

    for link in page.locator("a[href*='/reveal/rooms/']").all()[:2]:
        link.click()
        expect(page.locator("h1")).to_be_visible()
        assert page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        page.go_back()
