"""The Content-Security-Policy in a real browser: the site's pages and the admin load, run
their scripts and show their styles without one violation."""

import pytest

from tests.e2e.conftest import BROWSER_CAST, sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.conftest import make_game, users_for

# Playwright's init scripts are not subject to the page's policy: this one records what the
# browser refused, as the page itself would see it.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""

CAST = BROWSER_CAST[:5]  # no Fay


@pytest.fixture
def game(db):
    users = users_for(CAST)
    host = UserFactory(player_name="Host", is_staff=True, is_superuser=True)
    return make_game(host, users, CAST, title="Policy village", seed=11), users, host


def _visit(page, url, console):
    console.clear()
    response = page.goto(url)
    page.wait_for_load_state("load")
    assert response.status < 400, url
    assert "default-src 'self'" in response.headers["content-security-policy"], url
    violations = page.evaluate("window.__violations")
    refused = [text for text in console if "Content Security Policy" in text]
    assert violations == [] and refused == [], (url, violations, refused)


@pytest.mark.django_db(transaction=True)
def test_pages_and_the_admin_run_under_the_policy(browser, live_server, game):
    game, users, host = game
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console = []
    page.on("console", lambda message: console.append(message.text))
    base = live_server.url

    for path in (
        "/",
        "/games/",
        "/rules/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        f"/games/{game.pk}/",
    ):
        _visit(page, base + path, console)
    # The deadline's countdown script ran.
    assert page.evaluate("window.witchhuntDeadline") is True

    sign_in(page, base, users["ann"].email, DEFAULT_PASSWORD)
    for path in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/role/",
        "/accounts/profile/",
        "/accounts/email/",
        "/accounts/password/change/",
    ):
        _visit(page, base + path, console)

    context.clear_cookies()
    sign_in(page, base, host.email, DEFAULT_PASSWORD)
    for path in (
        "/admin/",
        "/admin/accounts/user/",
        f"/admin/accounts/user/{host.pk}/change/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        f"/games/{game.pk}/desk/",
    ):
        _visit(page, base + path, console)
    # The admin's scripts ran: its jQuery and the changelist's actions.
    page.goto(f"{base}/admin/games/game/")
    assert page.evaluate("typeof django !== 'undefined' && typeof django.jQuery") == "function"
    page.locator("#action-toggle").check()
    assert page.locator(".action-counter").inner_text().startswith("1 of 1")
    context.close()
