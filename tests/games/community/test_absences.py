"""Absences (issue 16): declared in the member's zone (days included), merged when they
touch for the prod rule (`away_until`), shown in the game's player list without the note
and on the moderator's desk with it, and nobody's but the member's own to list or delete."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.community.selectors.absences import absences_shown, away_until
from games.community.services import absences
from games.engine import GameRuleError
from games.models import Absence
from tests.factories import UserFactory
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # a Tuesday
NOTE = "Hospital-visit-7731"


@pytest.fixture
def paris(db):
    return UserFactory(player_name="Pia", time_zone="Europe/Paris")


def _declare(user, first, last, note="", now=NOW):
    return absences.absence_declare(user=user, first_day=first, last_day=last, note=note, now=now)


def test_an_absence_runs_from_the_first_midnight_to_the_one_after_the_last_day_in_the_zone(
    paris,
):
    absence = _declare(paris, date(2026, 12, 3), date(2026, 12, 4), " back Saturday ")
    assert absence.starts_at == datetime(2026, 12, 2, 23, 0, tzinfo=UTC)
    assert absence.ends_at == datetime(2026, 12, 4, 23, 0, tzinfo=UTC)
    assert absence.note == "back Saturday"


@pytest.mark.parametrize(
    ("first", "last", "note", "said"),
    [
        (date(2026, 12, 5), date(2026, 12, 4), "", "the last day away comes before the first"),
        (date(2026, 11, 20), date(2026, 11, 30), "", "those days are over already"),
        (date(2026, 12, 2), date(2027, 2, 1), "", "an absence is at most 60 days"),
        (date(2028, 1, 1), date(2028, 1, 2), "", "at most a year ahead"),
        (date(2026, 12, 2), date(2026, 12, 3), "x" * 201, "keep the note to 200 characters"),
    ],
)
def test_an_absence_that_cannot_be_is_refused_in_words(paris, first, last, note, said):
    with pytest.raises(GameRuleError, match=said):
        _declare(paris, first, last, note)
    assert not Absence.objects.exists()


def test_a_member_deletes_their_own_absence_and_nobody_elses(paris):
    mine = _declare(paris, date(2026, 12, 3), date(2026, 12, 4))
    other = UserFactory()
    with pytest.raises(GameRuleError, match="no such absence"):
        absences.absence_delete(user=other, pk=mine.pk)
    assert Absence.objects.filter(pk=mine.pk).exists()
    absences.absence_delete(user=paris, pk=mine.pk)
    assert not Absence.objects.exists()


def test_away_until_merges_absences_that_touch_or_overlap(paris):
    bob = UserFactory(time_zone="UTC")
    _declare(paris, date(2026, 12, 1), date(2026, 12, 3))
    _declare(paris, date(2026, 12, 4), date(2026, 12, 6))  # touches: one stretch
    _declare(paris, date(2026, 12, 10), date(2026, 12, 11))  # a gap: another
    _declare(bob, date(2026, 12, 5), date(2026, 12, 6))  # not begun at NOW
    back = away_until([paris.pk, bob.pk, UserFactory().pk], NOW)
    assert back == {paris.pk: datetime(2026, 12, 6, 23, 0, tzinfo=UTC)}
    assert away_until([paris.pk], datetime(2026, 12, 6, 23, 0, tzinfo=UTC)) == {}
    assert away_until([], NOW) == {}
    shown = absences_shown([paris.pk, bob.pk], NOW)
    assert shown[paris.pk].begun and shown[paris.pk].ends_at == back[paris.pk]
    assert not shown[bob.pk].begun
    assert absences_shown([paris.pk], datetime(2027, 1, 1, tzinfo=UTC)) == {}


# --- the pages --------------------------------------------------------------------------------
def test_the_player_list_says_away_until_without_the_note_and_the_desk_shows_it(
    client, moderator, cast_users
):
    game = make_game(moderator, cast_users)
    ann = cast_users["ann"]
    today = timezone.localdate()
    _declare(ann, today, today + timedelta(days=2), NOTE, now=timezone.now())
    last = today + timedelta(days=2)
    until = f"away until {last:%a} {last.day} {last:%b}"
    url = reverse("game_detail", args=[game.pk])
    for viewer in (cast_users["bob"], None):
        client.logout()
        if viewer:
            client.force_login(viewer)
        html = client.get(url).content.decode()
        assert until in html and NOTE not in html
    client.force_login(moderator)
    html = client.get(reverse("game_desk", args=[game.pk])).content.decode()
    assert until in html and NOTE in html


def test_the_absences_page_lists_and_deletes_only_the_members_own(client, paris):
    client.force_login(paris)
    today = timezone.localdate()
    response = client.post(
        reverse("absences"),
        {"first_day": today + timedelta(days=1), "last_day": today + timedelta(days=3),
         "note": NOTE},
    )  # fmt: skip
    assert response.status_code == 302
    mine = Absence.objects.get(user=paris)
    assert NOTE in client.get(reverse("absences")).content.decode()
    other = UserFactory()
    client.force_login(other)
    assert NOTE not in client.get(reverse("absences")).content.decode()
    client.post(reverse("absence_delete", args=[mine.pk]))
    assert Absence.objects.filter(pk=mine.pk).exists()
    assert client.get(reverse("absence_delete", args=[mine.pk])).status_code == 405
    client.force_login(paris)
    response = client.post(
        reverse("absences"), {"first_day": today, "last_day": today - timedelta(days=1)}
    )
    assert "The last day away comes before the first." in response.content.decode()
    client.post(reverse("absence_delete", args=[mine.pk]))
    assert not Absence.objects.exists()
    client.logout()
    assert client.get(reverse("absences")).status_code == 302  # sign in first
