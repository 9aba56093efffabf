"""The dark theme in Chromium (issue 30): the site follows the browser's light or dark
preference; a member who chooses dark (or light) in the preferences keeps it whatever the
browser says, and goes back to following it. axe checks every page in both themes
(conftest.AxeWatch)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import signed_in_page
from tests.factories import UserFactory

LIGHT = "rgb(250, 248, 245)"  # --paper, light
DARK = "rgb(20, 18, 23)"  # --paper, dark
BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def _save_theme(page, choice):
    page.get_by_label("Theme").select_option(label=choice)
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".message")).to_have_text("Your profile is saved.")
    page.wait_for_load_state()  # its style sheet too


@pytest.mark.django_db(transaction=True)
def test_a_member_switches_to_dark_and_back_to_following_the_browser(browser, live_server, shot):
    member = UserFactory(player_name="Owl")
    page = signed_in_page(browser, live_server.url, member)
    page.emulate_media(color_scheme="light")
    page.goto(f"{live_server.url}/accounts/profile/")
    assert page.evaluate(BACKGROUND) == LIGHT
    page.emulate_media(color_scheme="dark")  # following the browser, the page is dark
    assert page.evaluate(BACKGROUND) == DARK
    page.emulate_media(color_scheme="light")

    _save_theme(page, "Dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate(BACKGROUND) == DARK  # though the browser prefers light
    shot(page, "profile-dark")
    page.goto(f"{live_server.url}/rules/")
    assert page.evaluate(BACKGROUND) == DARK
    member.refresh_from_db()
    assert member.theme == "dark"

    page.goto(f"{live_server.url}/accounts/profile/")
    page.emulate_media(color_scheme="dark")
    _save_theme(page, "Light")
    assert page.evaluate(BACKGROUND) == LIGHT  # though the browser prefers dark

    _save_theme(page, "My browser’s (light or dark, as it is set)")
    expect(page.locator("html")).not_to_have_attribute("data-theme", "light")
    assert page.evaluate("document.documentElement.hasAttribute('data-theme')") is False
    assert page.evaluate(BACKGROUND) == DARK
    page.emulate_media(color_scheme="light")
    assert page.evaluate(BACKGROUND) == LIGHT
    member.refresh_from_db()
    assert member.theme == ""
