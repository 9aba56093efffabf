"""The setup lab in Chromium (issue 17): from the rules pages to the lab, a suggested 8-player
setup estimated; the page shows the job waiting, then keeps itself current
(static/js/lab.js) while a real Celery worker plays it, until the chart and its tables are
in. Small game counts (settings.LAB_*) keep it to seconds. axe checks every page loaded."""

import re

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from games.lab.services import lab_store
from games.lab.simulation.estimate import simulate
from games.lab.simulation.setups import find_suggested
from tests.e2e.conftest import sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory
from witchhunt.celery import app


@pytest.fixture
def small_lab(settings):
    settings.LAB_FIRST_GAMES = 30
    settings.LAB_SIZE_GAMES = 10
    settings.LAB_GAMES = 300
    settings.LAB_POLL_SECONDS = 1
    with app.connection_for_write() as conn:  # the in-memory broker's lab queue
        conn.SimpleQueue("lab").clear()


@pytest.mark.django_db(transaction=True)
def test_a_suggested_setup_is_estimated_with_its_progress_shown(page, live_server, small_lab, shot):
    user = UserFactory(player_name="Tinker")
    sign_in(page, live_server.url, user.email, DEFAULT_PASSWORD)
    page.goto(f"{live_server.url}/rules/")
    page.get_by_role("link", name="setup lab").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Setup lab")
    shot(page, "lab")
    page.get_by_role("button", name="Estimate Witchhunt 8").click()

    # No worker takes the lab's queue yet: the job waits, and says so.
    expect(page.get_by_role("heading", level=1)).to_have_text("Witchhunt 8 (suggested)")
    status = page.get_by_role("status").filter(has_text="lab")
    expect(status).to_have_text("Waiting for the lab’s worker…")
    # 300 games, 7 at each end of the skill band (a quarter of the first 30), 10 at each
    # of the four other sizes.
    expect(page.locator(".lab-progress__count")).to_have_text("0 of 354 games")
    expect(page.get_by_role("link", name="Refresh")).to_be_hidden()  # the script polls instead
    shot(page, "lab-waiting")

    with start_worker(app, pool="solo", perform_ping_check=False, queues=["lab"]):
        expect(page.locator("#lab-status")).to_have_text(
            "Done: the estimate is final.", timeout=120_000
        )
    chart = page.get_by_role("img", name="Win chances for Witchhunt 8 (suggested)")
    expect(chart).to_be_visible()
    shares = page.get_by_role("table", name="Win chances over 300 games")
    expect(shares.get_by_role("rowheader")).to_have_text(["Village", "Witches"])
    sizes = page.get_by_role("table", name="Win shares by number of players")
    expect(sizes.get_by_role("rowheader")).to_have_count(5)
    expect(page.locator(".lab-progress")).to_have_count(0)
    shot(page, "lab-result")

    # The same page loaded afresh (and checked by axe, chart and tables included).
    page.reload()
    expect(chart).to_be_visible()
    expect(page.get_by_role("link", name="Refresh")).to_have_count(0)

    # The chart follows the theme (issue 30): its words and axes are the page's ink, its
    # teams' colours the palette's, on the page's surface; light, then dark.
    colours = """svg => [
      getComputedStyle(svg.querySelector("g[transform*='scale']")).fill,
      getComputedStyle(svg.querySelector(".chart-fill-0")).fill,
      getComputedStyle(svg).backgroundColor]"""
    assert chart.evaluate(colours) == ["rgb(31, 26, 36)", "rgb(0, 114, 178)", "rgb(255, 255, 255)"]
    page.emulate_media(color_scheme="dark")
    assert chart.evaluate(colours) == ["rgb(235, 231, 239)", "rgb(86, 180, 233)", "rgb(29, 26, 33)"]
    shot(page, "lab-result-dark")
    page.emulate_media(color_scheme="light")


@pytest.mark.django_db(transaction=True)
def test_the_new_game_form_starts_from_a_suggested_setup_and_asks_the_lab(
    page, live_server, small_lab, shot
):
    """A host's new-game form lists the suggested setups with the lab's cached estimate; one
    fills the cards, and "Estimate this setup's balance" posts them to the lab, which has
    that setup's answer already (the suggested setup's, whatever order the page posts its
    pool in)."""
    werewolf_8 = find_suggested("werewolf-8")
    lab_store(setup=werewolf_8, estimate=simulate(werewolf_8, games=40, seed=3))
    host = UserFactory(player_name="Hostess")
    host.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="add_game")
    )
    sign_in(page, live_server.url, host.email, DEFAULT_PASSWORD)
    page.goto(f"{live_server.url}/games/new/")
    suggestions = page.locator(".lab-pick")
    expect(suggestions.get_by_role("listitem").filter(has_text="Werewolf 8")).to_have_text(
        re.compile(r"^Werewolf 8: Village \d+% ± \d+$")
    )
    expect(suggestions.get_by_role("listitem").filter(has_text="Witchhunt 8")).to_have_text(
        "Witchhunt 8"  # not estimated: no number, and no wait for one
    )
    suggestions.get_by_role("link", name="Werewolf 8").click()
    expect(page.get_by_label("Seats")).to_have_value("8")
    expect(page.get_by_label("Werewolf: Werewolves")).to_have_value("2")
    expect(page.get_by_role("checkbox", name="Seer")).to_be_checked()
    shot(page, "lab-new-game")

    page.get_by_role("button", name="Estimate this setup’s balance").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Werewolf 8 (suggested)")
    expect(page.locator("#lab-status")).to_have_text("Done: the estimate is final.")
    expect(page.get_by_role("table", name="Win chances over 40 games")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_a_second_estimate_waits_for_the_first_and_the_refusal_links_to_it(
    page, live_server, small_lab, shot
):
    """One estimate at work per member (issue 25): the second is refused on the form, in
    words, with a link to the first; the setup typed is kept."""
    user = UserFactory(player_name="Tinker")
    sign_in(page, live_server.url, user.email, DEFAULT_PASSWORD)
    page.goto(f"{live_server.url}/lab/")
    page.get_by_role("button", name="Estimate Witchhunt 8").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Witchhunt 8 (suggested)")

    page.goto(f"{live_server.url}/lab/")
    page.get_by_label("Witchhunt: stalemate after cycles without a death").fill("5")
    page.get_by_role("button", name="Estimate this setup").click()
    alert = page.locator("#lab-own").locator("..").get_by_role("alert")
    expect(alert).to_contain_text("Your estimate of Witchhunt 8 (suggested) is still running.")
    expect(page.get_by_label("Witchhunt: stalemate after cycles without a death")).to_have_value(
        "5"
    )
    shot(page, "lab-refused")
    alert.get_by_role("link", name="See how far it has got").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Witchhunt 8 (suggested)")


@pytest.mark.django_db(transaction=True)
def test_a_member_cancels_their_own_estimate_and_starts_it_again(
    page, live_server, small_lab, shot
):
    """Issue 32: an estimate at work can be cancelled from its page by its owner; the page
    then says so in words and offers to start it again."""
    user = UserFactory(player_name="Tinker")
    sign_in(page, live_server.url, user.email, DEFAULT_PASSWORD)
    page.goto(f"{live_server.url}/lab/")
    page.get_by_label("Witchhunt: stalemate after cycles without a death").fill("5")
    page.get_by_role("button", name="Estimate this setup").click()
    expect(page.locator("#lab-status")).to_have_text("Waiting for the lab’s worker…")
    page.get_by_role("button", name="Cancel this estimate").click()
    expect(page.locator("#lab-status")).to_have_text(
        "Cancelled: the lab stopped playing this estimate."
    )
    expect(page.get_by_role("button", name="Cancel this estimate")).to_have_count(0)
    expect(page.locator(".lab-progress")).to_have_count(0)
    shot(page, "lab-cancelled")
    page.get_by_role("button", name="Start it again").click()
    expect(page.locator("#lab-status")).to_have_text("Waiting for the lab’s worker…")


@pytest.mark.django_db(transaction=True)
def test_a_host_reads_the_band_and_the_sites_own_games_beside_the_estimate(
    page, live_server, small_lab, shot
):
    """Issue 32: the estimate's page shows the band from careless to sharp play and the
    site's finished games of the setup; the new-game form says what a picked suggested
    setup's estimate means. axe checks both pages in both themes."""
    from tests.games.lab.test_lab_answers import _estimate, _finished

    witchhunt_8 = find_suggested("witchhunt-8")
    band = (_estimate(witchhunt_8, 0.38), _estimate(witchhunt_8, 0.55))
    lab_store(setup=witchhunt_8, estimate=_estimate(witchhunt_8, 0.47), band=band)
    host = UserFactory(player_name="Hostess")
    host.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="add_game")
    )
    _finished(host, village=True)
    _finished(host, village=False)
    sign_in(page, live_server.url, host.email, DEFAULT_PASSWORD)

    page.goto(f"{live_server.url}/lab/{witchhunt_8.key()}/")
    expect(page.locator(".lab-meaning")).to_contain_text(
        "carelessly the Village wins 38%; when both play sharply, 55%"
    )
    observed = page.get_by_role("region", name="Games played on this site")
    expect(observed).to_contain_text("2 finished games on this site")
    expect(observed).to_contain_text("50%")
    shot(page, "lab-observed")

    page.goto(f"{live_server.url}/games/new/?suggested=witchhunt-8")
    chosen = page.get_by_role("region", name="The balance of Witchhunt 8")
    expect(chosen).to_contain_text("the Village won 47% (37% to 57%)")
    expect(chosen).to_contain_text("not a promise")
    expect(chosen).to_contain_text("2 finished games on this site")
    shot(page, "lab-chosen")
