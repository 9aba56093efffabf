"""The site shell in a real browser: the home page and signing in."""
import pytest

from tests.e2e.conftest import sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory


@pytest.mark.django_db(transaction=True)
def test_home_and_sign_in_in_chromium(page, live_server, shot):
    page.goto(live_server.url)
    assert page.get_by_role("link", name="Games").is_visible()
    shot(page, "home")
    user = UserFactory(player_name="Browser")
    page.goto(f"{live_server.url}/accounts/login/")
    shot(page, "sign-in")
    sign_in(page, live_server.url, user.email, DEFAULT_PASSWORD)
    footer = page.locator("footer")
    assert "Signed in as Browser" in footer.inner_text()
