"""In Chromium: the browser's time zone for visitors and at sign-up, the profile's zone list,
who may host and what the others are told, and the words on the pages (plurals, articles,
no file paths on the rules pages)."""

import re
import zoneinfo

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts.models import User
from games import services
from games.permissions import can_host
from tests.e2e.conftest import sign_in
from tests.factories import DEFAULT_PASSWORD, UserFactory

PASSWORD = "a-long-and-unusual-passphrase"
FILE_PATH = re.compile(r"\.\./|\bshared/|rules_text|\b[\w-]+\.(?:md|txt|py|json)\b")


def _werewolf_game(host, names=("Ann", "Bob", "Martha", "Dan")):
    """A running Werewolf game that shows each dead player's card (WW-3); Bob's the pack."""
    roles = {"Ann": "seer", "Bob": "werewolf", "Martha": "villager", "Dan": "villager"}
    users = {name: UserFactory(player_name=name) for name in names}
    game = services.game_create(
        host=host,
        ruleset="werewolf",
        title="Salem",
        seats_count=len(names),
        seed=3,
        deal={"mode": "explicit", "cards": [{"role": roles[n]} for n in names], "shuffle": False},
        options={"reveal_on_death": True},
    )
    for name in names:
        services.game_join(game=game, user=users[name])
    return services.game_start(game=game, by=host), users


def _shown(moment, zone):
    """A deadline as the page's <time> shows it in `zone` (Django's "D j M, H:i T")."""
    local = moment.astimezone(zoneinfo.ZoneInfo(zone))
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} {local.tzname()}"


def _report_zone(page, url):
    """Open `url` and wait for its script to report the browser's zone."""
    with page.expect_response(lambda r: r.url.endswith(reverse("browser_time_zone"))) as sent:
        page.goto(url)
    assert sent.value.status == 200
    return sent.value.json()["time_zone"]


@pytest.mark.django_db(transaction=True)
def test_a_visitor_gets_the_browsers_zone_and_signs_up_with_it(browser, live_server, shot):
    host = UserFactory(player_name="Host", is_superuser=True)
    game, _ = _werewolf_game(host)
    base = live_server.url
    # Chromium calls India's zone by its old name, Asia/Calcutta: the site keeps the city.
    context = browser.new_context(timezone_id="Asia/Calcutta")
    page = context.new_page()

    assert _report_zone(page, f"{base}/games/") == "Asia/Kolkata"
    page.goto(f"{base}/games/")
    deadline = page.locator(".lobby-phase time").first.inner_text()
    assert deadline == _shown(game.deadline_at, "Asia/Kolkata")
    footer = page.locator("footer").inner_text()
    assert "Times are shown in Asia/Kolkata, your browser’s time zone." in footer
    # Sent once: no page of this session asks again.
    assert page.locator('script[src*="timezone.js"]').count() == 0

    page.goto(f"{base}/accounts/signup/")
    assert page.get_by_label("Time zone").input_value() == "Asia/Kolkata"
    shot(page, "sign-up-time-zone")
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Player name").fill("Ada")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_load_state()
    ada = User.objects.get(player_name="Ada")
    assert ada.time_zone == "Asia/Kolkata"
    assert not can_host(ada)  # the site has a host already
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_first_sign_up_hosts_and_a_later_one_is_told_how_to_become_a_host(
    browser, live_server, shot
):
    base = live_server.url
    # A first visit straight to the sign-up page: the script selects the zone in place.
    context = browser.new_context(timezone_id="America/New_York")
    page = context.new_page()
    _report_zone(page, f"{base}/accounts/signup/")
    select = page.get_by_label("Time zone")
    page.wait_for_function(
        "() => document.querySelector('select[name=time_zone]').value === 'America/New_York'"
    )
    page.get_by_label("Email").fill("first@example.com")
    page.get_by_label("Player name").fill("First")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    assert select.input_value() == "America/New_York"
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_load_state()
    context.close()

    first = User.objects.get(player_name="First")
    assert first.time_zone == "America/New_York"
    EmailAddress.objects.filter(user=first).update(verified=True)
    page = browser.new_page()
    sign_in(page, base, first.email, PASSWORD)
    page.goto(f"{base}/games/")
    page.get_by_role("link", name="New game").first.click()
    assert page.get_by_role("heading", name="New game").is_visible()
    # The pool's counts are named in the plural.
    for label in ("Witchhunt: Village Spies", "Witchhunt: Elder Witches"):
        assert page.get_by_label(label, exact=True).count() == 1, label
    page.close()

    # A member who may not host: the lobby points to how, and the page says whom to ask.
    UserFactory(player_name="Root", is_superuser=True, is_staff=True)
    member = UserFactory(player_name="Martha")
    page = browser.new_page()
    sign_in(page, base, member.email, DEFAULT_PASSWORD)
    page.goto(f"{base}/games/")
    assert page.get_by_role("link", name="New game").count() == 0
    page.get_by_role("link", name="How to become a host").click()
    text = page.locator("main").inner_text()
    assert "Only hosts open games, and you are not a host yet." in text
    assert "Ask Root to make you one, giving your player name, Martha." in text
    shot(page, "becoming-a-host")
    page.close()


@pytest.mark.django_db(transaction=True)
def test_a_members_zone_wins_and_the_profile_groups_zones_by_region(browser, live_server):
    member = UserFactory(player_name="Paris", time_zone="Europe/Paris")
    host = UserFactory(player_name="Host", is_superuser=True)
    game, _ = _werewolf_game(host)
    context = browser.new_context(timezone_id="Asia/Tokyo")
    page = context.new_page()
    sign_in(page, live_server.url, member.email, DEFAULT_PASSWORD)

    page.goto(f"{live_server.url}/games/")
    assert page.locator(".lobby-phase time").first.inner_text() == _shown(
        game.deadline_at, "Europe/Paris"
    )
    assert page.locator('script[src*="timezone.js"]').count() == 0

    page.goto(f"{live_server.url}/accounts/profile/")
    select = page.get_by_label("Time zone")
    assert select.input_value() == "Europe/Paris"
    groups = select.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)")
    assert groups[:3] == ["Africa", "America", "Antarctica"] and "Europe" in groups
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert values[0] == "UTC"
    assert not {"Factory", "localtime", "US/Eastern", "Asia/Calcutta", "Etc/GMT+5"} & set(values)
    assert not [v for v in values if v.startswith("Etc/")]
    assert select.locator('optgroup[label="Europe"] option[value="Europe/Paris"]').count() == 1
    context.close()


@pytest.mark.django_db(transaction=True)
def test_martha_was_a_villager_and_the_rules_pages_show_no_paths(page, live_server):
    host = UserFactory(player_name="Host", is_superuser=True)
    game, users = _werewolf_game(host)
    services.phase_advance(game=game, by=host)  # night 1
    game.refresh_from_db()
    martha = game.seats.get(user=users["Martha"]).name
    services.action_submit(game=game, user=users["Bob"], action="pack", target=martha)
    services.phase_advance(game=game, by=host)  # the morning

    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.get_by_text("Martha was a Villager.").count() >= 1

    for path in ("/rules/", "/rules/witchhunt/", "/rules/werewolf/"):
        page.goto(live_server.url + path)
        text = page.locator("main").inner_text()
        assert not FILE_PATH.search(text), (path, FILE_PATH.search(text))


@pytest.mark.django_db(transaction=True)
def test_a_zone_that_names_no_city_is_refused_once_and_times_stay_in_utc(browser, live_server):
    context = browser.new_context(timezone_id="Etc/GMT+5")
    page = context.new_page()
    reports = []
    page.on(
        "response",
        lambda r: reports.append(r.status) if r.url.endswith(reverse("browser_time_zone")) else 0,
    )
    with page.expect_response(lambda r: r.url.endswith(reverse("browser_time_zone"))):
        page.goto(f"{live_server.url}/games/")
    page.goto(f"{live_server.url}/rules/")
    page.wait_for_load_state("networkidle")

    assert reports == [400]  # asked once; the next page remembers the refusal
    assert "Times are shown in UTC." in page.locator("footer").inner_text()
    context.close()
