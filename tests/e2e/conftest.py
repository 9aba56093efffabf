"""End-to-end tests: Debian's Chromium driven by pytest-playwright against live_server.

Playwright cannot download browsers here, so the launch points at /usr/bin/chromium (or
$CHROMIUM) with the flags this machine's closed network needs. Screenshots go to
docs/screenshots/.

Without that browser the tests skip, all with one reason, so `make test` passes with
nothing but Python; where they must run (CI sets WITCHHUNT_REQUIRE_BROWSER=1) a missing
browser fails them instead.
"""
import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls from the
# test itself are safe here because the live server serves from its own thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

REQUIRE_BROWSER = os.environ.get("WITCHHUNT_REQUIRE_BROWSER", "") not in ("", "0")
NO_BROWSER = (
    f"no Chromium at {CHROMIUM}: the end-to-end tests need it "
    "(install Debian's chromium, or set CHROMIUM to its path)"
)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Without the browser, every test here skips before its fixtures launch anything, all
    from this one line (so the run reports one line, not one per test); a failure instead
    where the browser is required."""
    if shutil.which(CHROMIUM):
        return
    if REQUIRE_BROWSER:
        pytest.fail(f"{NO_BROWSER}; WITCHHUNT_REQUIRE_BROWSER is set: they must run", pytrace=False)
    pytest.skip(NO_BROWSER)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"],
    }


@pytest.fixture
def shot(tmp_path):
    """Save a full-page screenshot of `page` as <name>.png: into docs/screenshots/ with
    `make screenshots` (WITCHHUNT_SCREENSHOTS=1), else into the test's temporary folder,
    so an ordinary test run leaves the committed pictures alone."""
    folder = SCREENSHOTS if os.environ.get("WITCHHUNT_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    return take


def sign_in(page, base_url, email, password):
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
