"""A member's colour theme (accounts.User.theme): blank follows the browser's
prefers-color-scheme, "light" or "dark" is kept on every page as <html data-theme>, with
the matching color-scheme for the browser's own controls. Visitors follow the browser."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.services import user_profile_update

pytestmark = pytest.mark.django_db

THEME_REFUSED = "Choose a theme: your browser’s, light or dark."


def _html_tag(page: str) -> str:
    return re.search(r"<html[^>]*>", page)[0]


def _color_scheme(page: str) -> str:
    return re.search(r'<meta name="color-scheme" content="([^"]*)">', page)[1]


def test_a_visitor_and_a_new_member_follow_the_browser(client, member):
    for _ in ("visitor", "member"):
        page = client.get(reverse("rules")).content.decode()
        assert "data-theme" not in _html_tag(page)
        assert _color_scheme(page) == "light dark"
        client.force_login(member)
    assert member.theme == ""


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_chosen_theme_is_kept_on_every_page_and_undone_by_following_the_browser(
    client, member, theme
):
    client.force_login(member)
    response = client.post(reverse("profile"), {"time_zone": "UTC", "theme": theme})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.theme == theme
    for url in (reverse("profile"), reverse("rules"), reverse("game_list")):
        page = client.get(url).content.decode()
        assert f'data-theme="{theme}"' in _html_tag(page)
        assert _color_scheme(page) == theme
    # The profile's select shows the choice.
    assert re.search(rf'<option value="{theme}" selected>', client.get(reverse("profile")).text)

    client.post(reverse("profile"), {"time_zone": "UTC", "theme": ""})
    member.refresh_from_db()
    assert member.theme == ""
    page = client.get(reverse("rules")).content.decode()
    assert "data-theme" not in _html_tag(page)
    assert _color_scheme(page) == "light dark"


def test_an_unknown_theme_is_refused_in_words_and_changes_nothing(client, member):
    client.force_login(member)
    response = client.post(
        reverse("profile"), {"time_zone": "Asia/Tokyo", "theme": "purple", "email_digest": "on"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["theme"] == [THEME_REFUSED]
    assert THEME_REFUSED in response.content.decode()
    member.refresh_from_db()
    assert (member.theme, member.time_zone, member.email_digest) == ("", "UTC", False)
    assert "data-theme" not in _html_tag(response.content.decode())


def test_the_service_refuses_an_unknown_theme_before_writing(member):
    with pytest.raises(ValidationError) as refused:
        user_profile_update(
            user=member,
            time_zone="Asia/Tokyo",
            email_deadline_reminders=False,
            email_phase_changes=False,
            theme='dark" onload="x',
        )
    assert refused.value.messages == [THEME_REFUSED]
    member.refresh_from_db()
    assert (member.theme, member.time_zone) == ("", "UTC")
