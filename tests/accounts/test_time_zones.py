"""Time zones: the browser's zone for visitors (kept in the session, offered at sign-up), the
member's own zone above it, and the profile's list of zones (by region, no aliases)."""

import re
import zoneinfo
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.middleware import BROWSER_ZONE_KEY
from accounts.models import User
from accounts.zones import canonical_zone, selectable_zones
from games import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-unusual-passphrase"
SCRIPT = re.compile(r'<script src="[^"]*/js/timezone\.js" data-url="([^"]+)" defer>')
STARTED = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


def _report(client, zone):
    return client.post(reverse("browser_time_zone"), {"time_zone": zone})


def _options(html: str) -> dict[str, list[str]]:
    """The profile select's option values by optgroup ("" for those outside any group)."""
    select = re.search(r'<select name="time_zone".*?</select>', html, re.S)[0]
    groups: dict[str, list[str]] = {}
    group = ""
    for tag in re.finditer(
        r'<optgroup label="([^"]*)">|</optgroup>|<option value="([^"]*)"', select
    ):
        if tag[0].startswith("<optgroup"):
            group = tag[1]
        elif tag[0] == "</optgroup>":
            group = ""
        else:
            groups.setdefault(group, []).append(tag[2])
    return groups


@pytest.fixture
def running_game():
    """A started game whose deadline the lobby shows, for anyone to read."""
    host = UserFactory(player_name="Host", is_superuser=True)
    players = [UserFactory(player_name=name) for name in ("Ann", "Bob", "Cat")]
    cards = [{"role": role} for role in ("werewolf", "villager", "villager")]
    with time_machine.travel(STARTED, tick=False):
        game = services.game_create(
            host=host,
            ruleset="werewolf",
            title="Zone village",
            seats_count=3,
            seed=1,
            deal={"mode": "explicit", "cards": cards, "shuffle": False},
        )
        for player in players:
            services.game_join(game=game, user=player)
        return services.game_start(game=game, by=host)


def _deadline_as_shown(game, zone: str) -> str:
    """The lobby's deadline as its <time> shows it in `zone` (Django's "D j M, H:i T")."""
    local = game.deadline_at.astimezone(zoneinfo.ZoneInfo(zone))
    return f'">{local:%a} {local.day} {local:%b}, {local:%H:%M} {local.tzname()}</time>'


# --- the list -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reported", "kept"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("Europe/Amsterdam", "Europe/Amsterdam"),  # a city of its own on the list
        ("Asia/Calcutta", "Asia/Kolkata"),  # what Chromium reports for India
        ("Europe/Kiev", "Europe/Kyiv"),
        ("US/Eastern", "America/New_York"),
        ("America/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("Etc/UTC", "UTC"),
        ("UTC", "UTC"),
        ("Etc/GMT+5", None),  # a fixed offset names no city
        ("Factory", None),
        ("localtime", None),
        ("Mars/Olympus_Mons", None),
        ("", None),
    ],
)
def test_a_reported_zone_becomes_a_zone_of_the_list(reported, kept):
    assert canonical_zone(reported) == kept
    assert kept is None or kept in selectable_zones()


def test_the_profile_lists_zones_by_region_without_aliases(client):
    client.force_login(UserFactory())
    groups = _options(client.get(reverse("profile")).content.decode())

    assert groups[""] == ["UTC"]
    assert list(groups)[1:] == sorted(list(groups)[1:])
    assert {"Africa", "America", "Asia", "Australia", "Europe", "Pacific"} <= set(groups)
    values = [zone for zones in groups.values() for zone in zones]
    assert len(values) == len(set(values)) == len(selectable_zones())
    assert "Europe/Berlin" in groups["Europe"] and "Asia/Kolkata" in groups["Asia"]
    for alias in ("Factory", "localtime", "posixrules", "Etc/GMT+5", "Etc/UTC", "GMT",
                  "US/Eastern", "Asia/Calcutta", "Europe/Kiev", "Japan", "Zulu"):  # fmt: skip
        assert alias not in values
    assert not [zone for zone in values if zone.startswith("Etc/")]
    # Each region's cities in order of their names, shown without underscores.
    html = client.get(reverse("profile")).content.decode()
    assert (
        '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires</option>' in html
    )


def test_an_old_zone_name_shows_as_its_city_and_an_offset_stays_choosable(client):
    old = UserFactory(time_zone="US/Eastern")
    client.force_login(old)
    html = client.get(reverse("profile")).content.decode()
    assert '<option value="America/New_York" selected>' in html
    assert 'value="US/Eastern"' not in html

    offset = UserFactory(time_zone="Etc/GMT+5")
    client.force_login(offset)
    html = client.get(reverse("profile")).content.decode()
    assert _options(html)["Other"] == ["Etc/GMT+5"]
    assert client.post(reverse("profile"), {"time_zone": "Etc/GMT+5"}).status_code == 302
    offset.refresh_from_db()
    assert offset.time_zone == "Etc/GMT+5"


# --- the browser's zone -------------------------------------------------------------------
def test_a_visitor_sees_times_in_the_zone_their_browser_reported(client, running_game):
    page = client.get(reverse("game_list")).content.decode()
    # Unknown yet: the page loads the script that reports it, and shows UTC.
    assert SCRIPT.search(page)[1] == reverse("browser_time_zone")
    assert client.cookies["csrftoken"].value  # what the script posts with
    assert _deadline_as_shown(running_game, "UTC") in page
    assert "Times are shown in UTC." in page

    response = _report(client, "Asia/Calcutta")
    assert response.status_code == 200 and response.json() == {"time_zone": "Asia/Kolkata"}
    assert client.session[BROWSER_ZONE_KEY] == "Asia/Kolkata"

    page = client.get(reverse("game_list")).content.decode()
    assert _deadline_as_shown(running_game, "Asia/Kolkata") in page
    assert _deadline_as_shown(running_game, "UTC") not in page
    assert "Times are shown in Asia/Kolkata, your browser’s time zone." in page
    assert not SCRIPT.search(page)  # sent once: the page no longer asks


@pytest.mark.parametrize("bad", ["Etc/GMT+5", "Mars/Olympus_Mons", "Europe/" + "x" * 200, ""])
def test_a_zone_that_is_no_city_is_refused_and_changes_nothing(client, bad):
    _report(client, "Europe/Berlin")
    response = _report(client, bad)
    assert response.status_code == 400
    assert response.json() == {"error": "Unknown time zone."}
    assert client.session[BROWSER_ZONE_KEY] == "Europe/Berlin"


def test_reporting_a_zone_is_a_post_with_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert client.get(reverse("browser_time_zone")).status_code == 405
    assert _report(client, "Europe/Berlin").status_code == 403
    assert BROWSER_ZONE_KEY not in client.session


def test_a_members_own_zone_wins_over_the_browsers(client, running_game):
    member = UserFactory(time_zone="Europe/Paris")
    _report(client, "Asia/Tokyo")
    client.force_login(member)  # the session, and the browser's zone in it, go on

    page = client.get(reverse("game_list")).content.decode()

    assert _deadline_as_shown(running_game, "Europe/Paris") in page
    assert _deadline_as_shown(running_game, "Asia/Tokyo") not in page
    assert not SCRIPT.search(page)
    member.refresh_from_db()
    assert member.time_zone == "Europe/Paris"


# --- sign-up ------------------------------------------------------------------------------
def _sign_up(client, **fields):
    data = {"email": "ada@example.com", "player_name": "Ada_99"}
    data |= {"password1": PASSWORD, "password2": PASSWORD, **fields}
    return client.post(reverse("account_signup"), data)


def test_sign_up_offers_the_browsers_zone(client):
    html = client.get(reverse("account_signup")).content.decode()
    assert '<option value="UTC" selected>' in html

    _report(client, "Asia/Calcutta")
    html = client.get(reverse("account_signup")).content.decode()
    assert '<option value="Asia/Kolkata" selected>' in html
    assert re.search(r'<select name="time_zone"[^>]*data-browser-zone', html)


def test_sign_up_keeps_the_zone_chosen_on_the_form(client):
    _report(client, "Asia/Tokyo")
    assert _sign_up(client, time_zone="America/Chicago").status_code == 302
    assert User.objects.get().time_zone == "America/Chicago"


def test_sign_up_without_a_zone_takes_the_browsers(client):
    _report(client, "Asia/Tokyo")
    assert _sign_up(client).status_code == 302
    assert User.objects.get().time_zone == "Asia/Tokyo"


def test_sign_up_refuses_a_zone_that_is_not_on_the_list(client):
    response = _sign_up(client, time_zone="US/Eastern")
    assert response.status_code == 200
    assert response.context["form"].errors["time_zone"]
    assert not User.objects.exists()
