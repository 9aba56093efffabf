"""End-to-end tests: Debian's Chromium driven by pytest-playwright against live_server.

Playwright cannot download browsers here, so the launch points at /usr/bin/chromium (or
$CHROMIUM) with the flags this machine's closed network needs. Screenshots go to
docs/screenshots/.

Every page a test loads is checked with axe-core as it loads (AxeWatch, below), in the light
theme and in the dark one (the browser's prefers-color-scheme, emulated): a test fails on
the first WCAG 2.0 or 2.1 A or AA violation, contrast included, whatever else it checks.

With WITCHHUNT_PSEUDO_LOCALE=1 (`make test-pseudo`) every page is also checked for English
no catalog worded (tests/e2e/pseudo_run.py).

Without that browser the tests skip, all with one reason, so `make test` passes with
nothing but Python; where they must run (CI sets WITCHHUNT_REQUIRE_BROWSER=1) a missing
browser fails them instead.
"""

import io
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright._impl._sync_base import SyncBase
from playwright.sync_api import Error as PlaywrightError

from tests.e2e import pseudo_run

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


HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session", autouse=True)
def pseudo_locale(tmp_path_factory):
    """Under WITCHHUNT_PSEUDO_LOCALE: the marked catalog written once for the run and read
    instead of any other English (LOCALE_PATHS; the change resets Django's loaded
    translations), and Playwright's reads and typing watched (pseudo_run.py). The German
    catalog stays behind it: the tests that choose German read German."""
    if not pseudo_run.ENABLED:
        yield None
        return
    from django.conf import settings
    from django.core.management import call_command
    from django.test import override_settings

    folder = tmp_path_factory.mktemp("marked-locale")
    call_command("pseudo_locale", "--marked", "--out", str(folder), stdout=io.StringIO())
    paths = [str(folder), *settings.LOCALE_PATHS]  # the first path a language is in wins
    with override_settings(LOCALE_PATHS=paths), pytest.MonkeyPatch.context() as patch:
        pseudo_run.patch_playwright(patch)
        pseudo_run.patch_mail(patch)
        yield folder


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Every test here is slow (a real browser): `make test-fast` leaves them out. Before
    `-m` deselects, and only for this folder's tests (this hook sees the whole run's)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.slow)


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
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
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


# The browser tests' village: a six-seat Witchhunt cast whose cards everyone knows (those
# of five seats take the first five).
BROWSER_CAST = [
    ("Ann", "priest", "holy_villager"),
    ("Bob", "judge", "elder_witch"),
    ("Cat", "gambler", "basic_villager"),
    ("Dan", "recluse", "basic_villager"),
    ("Eve", "oracle", "basic_villager"),
    ("Fay", "survivalist", "elder_witch"),
]


def sign_in(page, base_url, email, password):
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    # The click returns before the sign-in's redirect lands: waiting for the page to leave
    # the form keeps the next page.goto from racing it (and arriving signed out).
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.wait_for_load_state()


def signed_in_page(browser, base_url, user, *, scripts=True):
    """A desktop-sized page of a new browser context, signed in as `user` (a factory user:
    DEFAULT_PASSWORD). Without `scripts`, the site's scripts never load (as with JavaScript
    off: a context with it off would stop axe-core, which runs in the page)."""
    from tests.factories import DEFAULT_PASSWORD

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if not scripts:
        context.route("**/static/js/**", lambda route: route.abort())
    page = context.new_page()
    sign_in(page, base_url, user.email, DEFAULT_PASSWORD)
    return page


# --- axe-core on every page ----------------------------------------------------------------
# The vendored axe-core (tests/e2e/vendor/README.md) runs the WCAG 2.0 and 2.1 A and AA rules.
# Playwright's `evaluate` is not subject to the page's Content-Security-Policy, so axe needs
# no exception in the site's policy and no network.
AXE_SOURCE = (Path(__file__).with_name("vendor") / "axe.min.js").read_text(encoding="utf-8")
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN_AXE = """async (tags) => {
  const result = await axe.run(document, {
    runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
  });
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; at `
    + v.nodes.map((node) => node.target.join(" ")).join(", "));
}"""
# axe reports an aria-describedby that names a missing id only for review, not as a
# violation: a field's help or error would go unread. So this is checked beside it.
MISSING_REFERENCES = """() => [
  ...document.querySelectorAll("[aria-describedby], [aria-labelledby]")
].flatMap((el) => ["aria-describedby", "aria-labelledby"].flatMap((name) =>
    (el.getAttribute(name) || "").split(/\\s+/)
      .filter((id) => id && !document.getElementById(id))
      .map((id) => `missing-id: <${el.tagName.toLowerCase()} id="${el.id}"> ${name}`
        + ` names no element "${id}"`)))"""
# A page's markup without its words and attribute values (but its classes, roles and types):
# the same page in the same state, whoever views it and whenever (a new CSRF token, another
# game's number), is checked once a run.
SKELETON = """() => document.documentElement.outerHTML.replace(/>[^<]*</g, "><")
  .replace(/ ([\\w:-]+)="[^"]*"/g,
    (attr, name) => ["class", "role", "type"].includes(name) ? attr : " " + name)"""


def axe_violations(page):
    """axe-core's WCAG A and AA violations on `page` as it is now, and every ARIA reference
    to an id that no element has, one line each."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE)
    return page.evaluate(RUN_AXE, AXE_TAGS) + page.evaluate(MISSING_REFERENCES)


# The scheme the page's browser reports now, and whether the page chose a theme of its own
# (a member's, <html data-theme>: then the browser's preference changes nothing).
PAGE_SCHEME = """() => document.documentElement.hasAttribute("data-theme") ? "chosen"
  : (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light")"""


def axe_violations_in_both_themes(page):
    """axe_violations in the page's theme, and, unless the page chose one, in the other
    (the browser's preference emulated, then given back), each line naming its theme."""
    scheme = page.evaluate(PAGE_SCHEME)
    if scheme == "chosen":
        return axe_violations(page)
    other = "light" if scheme == "dark" else "dark"
    found = [f"[{scheme}] {v}" for v in axe_violations(page)]
    page.emulate_media(color_scheme=other)
    try:
        found += [f"[{other}] {v}" for v in axe_violations(page)]
    finally:
        page.emulate_media(color_scheme=scheme)
    return found


def assert_accessible(page):
    violations = axe_violations_in_both_themes(page)
    assert not violations, f"axe-core on {page.url}:\n" + "\n".join(violations)


class AxeWatch:
    """Checks each HTML page the browser loads, once loaded, before the test's next call to
    the browser, in both themes: a violation fails the test at that call, naming the page,
    the theme and the rules. Each distinct page is checked once a run in each theme.

    The hook is Playwright's one entry point for synchronous calls (`SyncBase._sync`), so the
    tests need no line of their own; the pages they leave open are checked at the end. The
    admin is Django's own, not the site's pages, and is left out."""

    seen = set()  # SKELETON hashes checked this run
    checked = 0

    def __init__(self, browser):
        self.browser = browser
        self.english = pseudo_run.EnglishWatch() if pseudo_run.ENABLED else None
        self.pending = []  # pages with a loaded document not yet checked
        self.watched = set()
        self.busy = False

    def watch(self):
        for context in self.browser.contexts:
            for page in context.pages:
                if page not in self.watched:
                    self.watched.add(page)
                    page.on("load", lambda loaded: self.pending.append(loaded))

    def check_pending(self):
        self.busy = True  # the checks' own calls to the browser pass straight through
        try:
            while self.pending:
                self._check(self.pending.pop(0))
        finally:
            self.busy = False

    def _check(self, page):
        if page.is_closed() or urlsplit(page.url).path.startswith("/admin/"):
            return
        try:
            if page.evaluate("document.contentType") != "text/html":
                return  # e.g. the game record's JSON
            if self.english:
                self.english.check(page)
            skeleton = hash(page.evaluate(SKELETON))
            if skeleton in AxeWatch.seen:
                return
            violations = axe_violations_in_both_themes(page)
        except PlaywrightError as e:
            if page.is_closed() or "context was destroyed" in str(e):
                return  # closed, or already navigating on: the next page is checked instead
            raise
        AxeWatch.seen.add(skeleton)
        AxeWatch.checked += 1
        assert not violations, f"axe-core on {page.url}:\n" + "\n".join(violations)


@pytest.fixture(autouse=True)
def axe_every_page(browser, monkeypatch):
    watch = AxeWatch(browser)
    real_sync = SyncBase._sync

    def checked_sync(self, awaitable):
        __tracebackhide__ = True
        if not watch.busy:
            try:
                watch.watch()
                watch.check_pending()
            except BaseException:
                # The call that was about to run never will (a coroutine, or a future).
                (getattr(awaitable, "close", None) or awaitable.cancel)()
                raise
        return real_sync(self, awaitable)

    monkeypatch.setattr(SyncBase, "_sync", checked_sync)
    yield watch
    watch.check_pending()
    monkeypatch.undo()
    # The live server lives as long as the run: a page left open would go on polling it
    # (static/js/live.js) after its test's database is gone.
    for context in browser.contexts:
        context.close()
    if watch.english and watch.english.this_test:
        pytest.fail(
            "English no catalog worded, under the pseudo-locale:\n" + watch.english.report(),
            pytrace=False,
        )


def pytest_terminal_summary(terminalreporter):
    if pseudo_run.ENABLED:
        english = pseudo_run.EnglishWatch
        terminalreporter.write_line(f"pseudo-locale: {english.checked} distinct pages checked")
        if english.found:
            terminalreporter.write_line("English left on the pages (page: words):")
            terminalreporter.write_line(pseudo_run.report(english.found))
    if AxeWatch.checked:
        terminalreporter.write_line(
            f"axe-core: {AxeWatch.checked} distinct pages checked, light and dark "
            "(WCAG 2.0 and 2.1 A and AA)"
        )


# --- what the browser showed when a test failed ----------------------------------------------
PAGE_TEXT_SHOWN = 1500  # characters of each open page's text in a failure's report


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report ends with each page it left open: its address and the start
    of its text as shown (a page served signed out, or a phase moved on, says so at once)."""
    outcome = yield
    report = outcome.get_result()
    watch = item.funcargs.get("axe_every_page")
    if report.when != "call" or not report.failed or watch is None:
        return
    watch.busy = True  # read the pages as they are: no check runs first
    lines = []
    try:
        for context in watch.browser.contexts:
            for page in context.pages:
                try:
                    text = page.evaluate("document.body ? document.body.innerText : ''")
                except PlaywrightError as e:
                    text = f"(unreadable: {e})"
                lines += [f"--- {page.url}", text[:PAGE_TEXT_SHOWN]]
    finally:
        watch.busy = False
    if lines:
        report.sections.append(("the pages left open", "\n".join(lines)))
