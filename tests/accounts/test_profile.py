import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

JOINED_AT = dt.datetime(2025, 1, 15, 12, 0, tzinfo=dt.UTC)


def test_profile_needs_sign_in(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_profile_saves_time_zone_and_email_preferences(client, member):
    client.force_login(member)

    response = client.post(
        reverse("profile"), {"time_zone": "Asia/Tokyo", "email_phase_changes": "on"}
    )

    assert response.status_code == 302
    member.refresh_from_db()
    assert member.time_zone == "Asia/Tokyo"
    assert member.email_deadline_reminders is False
    assert member.email_phase_changes is True


def test_profile_refuses_unknown_time_zone(client, member):
    client.force_login(member)

    response = client.post(reverse("profile"), {"time_zone": "Mars/Olympus_Mons"})

    assert response.status_code == 200
    assert response.context["form"].errors["time_zone"]
    member.refresh_from_db()
    assert member.time_zone == "UTC"


@pytest.mark.parametrize(
    ("time_zone", "shown"),
    [
        ("Europe/Paris", "15 Jan 2025, 13:00 CET"),
        ("America/New_York", "15 Jan 2025, 07:00 EST"),
        ("UTC", "15 Jan 2025, 12:00 UTC"),
    ],
)
def test_time_shown_in_the_members_zone(client, time_zone, shown):
    member = UserFactory(time_zone=time_zone, date_joined=JOINED_AT)
    client.force_login(member)

    page = client.get(reverse("profile")).content.decode()

    assert shown in page
    assert f"Times are shown in {time_zone}" in page


def test_same_time_differs_between_two_members(client):
    paris = UserFactory(time_zone="Europe/Paris", date_joined=JOINED_AT)
    tokyo = UserFactory(time_zone="Asia/Tokyo", date_joined=JOINED_AT)

    client.force_login(paris)
    paris_page = client.get(reverse("profile")).content.decode()
    client.force_login(tokyo)
    tokyo_page = client.get(reverse("profile")).content.decode()

    assert "13:00 CET" in paris_page and "21:00 JST" not in paris_page
    assert "21:00 JST" in tokyo_page and "13:00 CET" not in tokyo_page


def test_member_zone_does_not_outlive_the_request(client):
    client.force_login(UserFactory(time_zone="Asia/Tokyo"))
    client.get(reverse("profile"))
    assert timezone.get_current_timezone_name() == "UTC"


@pytest.mark.parametrize("name", ["profile", "account_email", "account_change_password"])
def test_account_pages_share_the_account_navigation(client, member, name):
    client.force_login(member)

    response = client.get(reverse(name))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<nav class="subnav" aria-label="Account">' in html
    assert f'<a href="{reverse(name)}" aria-current="page">' in html
