"""Reports and ignore in a real browser: Ann reports Bob's post from its "Report or ignore"
link, the host handles it on the desk with a word, and Ann reads the outcome in her
notifications and on her reports page; then Ann ignores Bob (his post folds to one line
that opens without script) and stops ignoring him from her profile. Screenshots:
desk-reports.png, post-report.png, thread-ignored.png."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import BROWSER_CAST, signed_in_page
from tests.factories import UserFactory
from tests.games.conftest import make_game, users_for

BOB_SAYS = "Anyone want to see my role page? I'll paste it."
NOTE = "He offered to paste his role page."
WORD = "I have warned Bob in private."


@pytest.mark.django_db(transaction=True)
def test_a_report_is_handled_and_an_ignore_toggled(browser, live_server, shot):
    users = users_for(BROWSER_CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, BROWSER_CAST, title="Browser reports", seed=5)
    number = services.post_create(game=game, user=users["bob"], body=BOB_SAYS).number
    url = f"{live_server.url}/games/{game.pk}/"

    # Ann reports Bob's post from its link.
    ann = signed_in_page(browser, live_server.url, users["ann"])
    ann.goto(url)
    ann.locator(f"#p{number}").get_by_role("link", name="Report or ignore").click()
    expect(ann.get_by_role("heading", level=1)).to_contain_text(f"Post #{number} by Bob")
    shot(ann, "post-report")
    ann.get_by_label("Outside information").check()
    ann.get_by_label("A note for the moderator").fill(NOTE)
    ann.get_by_role("button", name="Send the report").click()
    expect(ann.locator(".message--success")).to_contain_text("Your report is with the moderator")
    expect(ann.locator("[data-report-state='open']")).to_be_visible()

    # The host finds it on the desk beside the hide tool and handles it with a word.
    desk = signed_in_page(browser, live_server.url, host)
    desk.goto(f"{url}desk/")
    report = desk.locator("[data-report]")
    expect(report).to_have_count(1)
    expect(report).to_contain_text(NOTE)
    expect(report).to_contain_text("Reported by Ann")
    shot(desk, "desk-reports")
    report.get_by_label("A word to the reporter").fill(WORD)
    report.get_by_role("button", name="Handled").click()
    expect(desk.locator(".message--success")).to_contain_text("The report is settled")
    expect(desk.locator("[data-report]")).to_have_count(0)

    # Ann is told, and her reports page says what became of it.
    ann.goto(f"{live_server.url}/notifications/")
    expect(ann.locator("main")).to_contain_text(WORD)
    ann.goto(f"{live_server.url}/reports/")
    row = ann.locator("[data-report-open='no']")
    expect(row).to_contain_text("Handled by the moderator")
    expect(row).to_contain_text(WORD)

    # Ann ignores Bob: back on the thread his post is one closed line, opened by a click.
    ann.goto(url)
    ann.locator(f"#p{number}").get_by_role("link", name="Report or ignore").click()
    ann.get_by_role("button", name="Ignore Bob").click()
    fold = ann.locator(f"#p{number} details.post__ignored")
    expect(fold.locator("summary")).to_contain_text("A post by Bob, hidden by you")
    body = ann.locator(f"#p{number} .post__body")
    expect(body).to_be_hidden()
    fold.locator("summary").click()
    expect(body).to_be_visible()
    expect(body).to_contain_text(BOB_SAYS)
    fold.locator("summary").click()
    shot(ann, "thread-ignored")

    # From her profile she stops ignoring him: his post shows in full again.
    ann.goto(f"{live_server.url}/accounts/profile/")
    ignored = ann.locator("#ignored")
    expect(ignored).to_contain_text("Bob")
    ignored.get_by_role("button", name="Stop ignoring").click()
    expect(ann.locator(".message--success")).to_contain_text("You no longer ignore them")
    expect(ann.locator("#ignored")).to_contain_text("You ignore nobody.")
    ann.goto(url)
    expect(ann.locator(f"#p{number} details")).to_have_count(0)
    expect(ann.locator(f"#p{number} .post__body")).to_be_visible()
