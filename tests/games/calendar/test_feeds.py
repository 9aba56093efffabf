"""The calendar feeds (games/calendar): a member's private address and a game's public feed
validate as iCalendar (RFC 5545), move with the moderator's extension and the clock's pause,
list only the member's own games, die when revoked, and cost the same queries however many
games they list."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from games import services
from games.calendar.services import feed_renew
from games.calendar.tokens import token_for
from games.community.services.signups import signups_settings_set
from games.leaving.services import member_erase, member_export
from games.models import CalendarFeed, Game
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
# Long and not ASCII, so the SUMMARY and DESCRIPTION lines fold, some inside a character.
TITLE = "Hexenjagd in Großöhringen: die große Überraschung des Frühlings, Spiel 12 " + "ä" * 20


def _address(user) -> str:
    return reverse("calendar_member_feed", args=[token_for(feed_renew(user=user).nonce)])


def _events(response) -> list:
    assert response.status_code == 200, response.status_code
    return Calendar.from_ical(response.content).walk("VEVENT")


@pytest.fixture
def game(moderator, cast_users):
    with time_machine.travel(T0, tick=False):
        return make_game(moderator, cast_users, title=TITLE)


def test_the_private_feed_validates_as_icalendar(game, cast_users):
    response = Client().get(_address(cast_users["ann"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="witchhunt-deadlines.ics"'
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    body = response.content
    # RFC 5545 3.1: every line ends in CRLF, none is longer than 75 octets (the UTF-8 bytes,
    # not the characters), and a longer one is folded with a leading space.
    assert body.endswith(b"\r\n")
    lines = body.split(b"\r\n")[:-1]
    assert all(b"\n" not in line and b"\r" not in line for line in lines)
    assert max(len(line) for line in lines) <= 75
    assert any(line.startswith(b" ") for line in lines), "nothing was long enough to fold"
    calendar = Calendar.from_ical(body)
    assert calendar["VERSION"] == "2.0"
    assert calendar["PRODID"] == "-//Witchhunt//Deadlines//EN"
    (event,) = calendar.walk("VEVENT")
    for required in ("UID", "DTSTAMP", "DTSTART", "SEQUENCE", "LAST-MODIFIED", "SUMMARY", "URL"):
        assert required in event, required
    game.refresh_from_db()
    assert event.decoded("DTSTART") == game.deadline_at
    assert event["DTSTART"].to_ical() == game.deadline_at.strftime("%Y%m%dT%H%M%SZ").encode()
    assert str(event["SUMMARY"]) == f"{TITLE} · Day 1 ends"
    assert str(event["UID"]).startswith(f"game-{game.pk}-day-1@")
    assert str(event["URL"]).endswith(reverse("game_detail", args=[game.pk]))
    assert event.decoded("DTSTAMP") == game.phase_started_at == T0
    (alarm,) = event.walk("VALARM")
    assert alarm.decoded("TRIGGER") == -timedelta(hours=1)


def test_an_extended_deadline_moves_the_same_event(game, moderator, cast_users):
    address = _address(cast_users["ann"])
    (before,) = _events(Client().get(address))
    with time_machine.travel(T0 + timedelta(hours=5), tick=False):
        services.clock_extend(game=game, by=moderator, delta=timedelta(hours=6))
    (after,) = _events(Client().get(address))
    assert after["UID"] == before["UID"]
    assert after.decoded("SEQUENCE") == before.decoded("SEQUENCE") + 1 == 1
    assert after.decoded("DTSTART") == before.decoded("DTSTART") + timedelta(hours=6)
    assert after.decoded("LAST-MODIFIED") == after.decoded("DTSTAMP") == T0 + timedelta(hours=5)

    # A pause says so (the event is tentative); the restart moves it on by the pause.
    game.refresh_from_db()
    with time_machine.travel(T0 + timedelta(hours=7), tick=False):
        services.clock_pause(game=game, by=moderator)
    (paused,) = _events(Client().get(address))
    assert paused.decoded("SEQUENCE") == 2
    assert str(paused["STATUS"]) == "TENTATIVE"
    assert "(clock paused)" in str(paused["SUMMARY"])
    with time_machine.travel(T0 + timedelta(hours=9), tick=False):
        services.clock_resume(game=game, by=moderator)
    (resumed,) = _events(Client().get(address))
    assert resumed.decoded("SEQUENCE") == 3
    assert resumed.decoded("DTSTART") == after.decoded("DTSTART") + timedelta(hours=2)
    assert str(resumed["STATUS"]) == "CONFIRMED"


def test_a_new_phase_is_a_new_event(game, moderator, cast_users):
    address = _address(cast_users["ann"])
    (day,) = _events(Client().get(address))
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        services.phase_advance(game=game, by=moderator)
    (night,) = _events(Client().get(address))
    assert str(night["UID"]).startswith(f"game-{game.pk}-night-1@")
    assert night["UID"] != day["UID"]
    assert night.decoded("SEQUENCE") == 0
    assert night.decoded("DTSTAMP") == T0 + timedelta(hours=1)


def test_revoking_kills_the_old_address(cast_users, game):
    ann = cast_users["ann"]
    client = Client()
    client.force_login(ann)
    response = client.post(reverse("calendar_feed_renew"))
    assert response.status_code == 302 and response["Location"].endswith("/profile/#calendar")
    first = reverse("calendar_member_feed", args=[token_for(ann.calendar_feed.nonce)])
    assert Client().get(first).status_code == 200
    client.post(reverse("calendar_feed_renew"))
    ann.refresh_from_db()
    second = reverse("calendar_member_feed", args=[token_for(ann.calendar_feed.nonce)])
    assert second != first
    assert Client().get(first).status_code == 404
    assert Client().get(second).status_code == 200
    client.post(reverse("calendar_feed_remove"))
    assert Client().get(second).status_code == 404
    assert not CalendarFeed.objects.filter(user=ann).exists()


def test_a_get_changes_no_address_and_a_stranger_cannot_post(cast_users):
    assert Client().get(reverse("calendar_feed_renew")).status_code in (302, 405)
    assert Client().post(reverse("calendar_feed_renew")).status_code == 302  # to sign in
    assert not CalendarFeed.objects.exists()


@pytest.mark.parametrize("token", ["x" * 32, "short", "A" * 31 + "-"])
def test_an_unknown_address_is_a_404(token, cast_users):
    _address(cast_users["ann"])
    assert Client().get(f"/calendar/{token}.ics").status_code == 404


def test_a_private_feed_lists_only_the_members_games(game, moderator, cast_users):
    outsider = UserFactory(player_name="Outsider")
    assert _events(Client().get(_address(outsider))) == []
    # The host's feed lists the game they moderate.
    (hosted,) = _events(Client().get(_address(moderator)))
    assert str(hosted["UID"]).startswith(f"game-{game.pk}-")
    # An open game the member signed up for, with a start date: its start.
    starts = T0 + timedelta(days=3)
    with time_machine.travel(T0, tick=False):
        other = services.game_create(
            host=moderator, ruleset="witchhunt", title="Next one", seats_count=8, seed=3,
            deal={"mode": "explicit", "cards": [{"character": c, "type": t} for _, c, t in CAST]},
            signups_close_at=starts,
        )  # fmt: skip
        services.game_join(game=other, user=outsider)
    (start,) = _events(Client().get(_address(outsider)))
    assert str(start["UID"]).startswith(f"game-{other.pk}-start@")
    assert start.decoded("DTSTART") == starts
    assert str(start["SUMMARY"]) == "Next one · starts"
    # A finished game is no longer listed.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert [str(e["UID"]) for e in _events(Client().get(_address(cast_users["ann"])))] == []


def test_a_german_members_feed_is_in_german(game, cast_users):
    ann = cast_users["ann"]
    ann.language = "de"
    ann.save(update_fields=["language"])
    (event,) = _events(Client().get(_address(ann)))
    assert "Tag 1" in str(event["SUMMARY"])
    assert "Day 1" not in str(event["SUMMARY"])


def test_an_unchanged_feed_is_a_304_to_an_app_that_has_it(game, cast_users):
    address = _address(cast_users["ann"])
    first = Client().get(address)
    again = Client().get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    # A feed may change to an older one (here its game leaves it): no Last-Modified, so an
    # app's If-Modified-Since never takes that for "unchanged".
    assert "Last-Modified" not in first
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    later = Client().get(address, HTTP_IF_MODIFIED_SINCE="Fri, 01 Jan 2100 00:00:00 GMT")
    assert _events(later) == []
    assert Client().get(address, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_the_feeds_query_count_does_not_grow_with_games(moderator, cast_users):
    ann = cast_users["ann"]
    address = _address(ann)

    def counted():
        Client().get(address)  # "last read" written: the next read writes nothing
        with CaptureQueriesContext(connection) as queries:
            response = Client().get(address)
        return len(queries), len(_events(response))

    make_game(moderator, cast_users, title="One")
    one = counted()
    for n in range(3):
        others = {name: UserFactory() for name in ("bob", "cat", "dan", "eve", "fay", "gus", "hal")}
        make_game(moderator, {"ann": ann, **others}, title=f"More {n}")
    four = counted()
    assert one[1] == 1 and four[1] == 4
    # The feed by its token (with its member), "last read" (a conditional update), the games
    # with their moves counted.
    assert one[0] == four[0] == 3


def test_a_games_public_feed_and_its_link(game, client):
    page = client.get(reverse("game_detail", args=[game.pk]))
    url = reverse("calendar_game_feed", args=[game.pk])
    assert f'<a href="{url}" type="text/calendar">'.encode() in page.content
    assert f'<link rel="alternate" type="text/calendar" href="{url}"'.encode() in page.content
    response = client.get(url)
    (event,) = _events(response)
    assert str(event["SUMMARY"]) == f"{TITLE} · Day 1 ends"
    assert "public" in response["Cache-Control"]
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}-deadlines.ics"'
    assert client.get(reverse("calendar_game_feed", args=[game.pk + 1000])).status_code == 404


def test_the_profile_shows_the_address(cast_users):
    ann = cast_users["ann"]
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("profile")).content.decode()
    assert "Make my calendar address" in page
    client.post(reverse("calendar_feed_renew"))
    ann.refresh_from_db()
    page = client.get(reverse("profile")).content.decode()
    assert f"/calendar/{token_for(ann.calendar_feed.nonce)}.ics" in page
    assert "webcal://" in page


def test_an_erased_members_address_dies_and_their_data_says_when_it_was_made(cast_users):
    outsider = UserFactory(player_name="Outsider")
    address = _address(outsider)
    client = Client()
    client.get(address)
    data = member_export(user=outsider)["calendar"]
    assert set(data) == {"address_made_at", "last_read_at"} and data["last_read_at"]
    assert token_for(outsider.calendar_feed.nonce) not in repr(member_export(user=outsider))
    member_erase(user=outsider, by=outsider)
    assert client.get(address).status_code == 404
    assert not CalendarFeed.objects.exists()


def test_the_early_end_moves_the_event(moderator, cast_users):
    """W-2a: once every living player is done the deadline moves up to the grace, and the
    thread says so: the same event, one move later, at the new time."""
    with time_machine.travel(T0, tick=False):
        game = make_game(moderator, cast_users, early_end=True)
    address = _address(cast_users["ann"])
    (before,) = _events(Client().get(address))
    done = T0 + timedelta(hours=2)
    with time_machine.travel(done, tick=False):
        for name in cast_users:
            services.phase_lock_in(game=game, user=cast_users[name])
    game.refresh_from_db()
    assert game.deadline_at == done + game.early_end_grace
    (after,) = _events(Client().get(address))
    assert after["UID"] == before["UID"]
    assert after.decoded("SEQUENCE") == 1
    assert after.decoded("DTSTART") == game.deadline_at
    assert after.decoded("DTSTAMP") == done


def test_a_moved_start_moves_the_start_event(moderator):
    member = UserFactory(player_name="Early")
    cards = [{"character": c, "type": t} for _, c, t in CAST]
    with time_machine.travel(T0, tick=False):
        game = services.game_create(
            host=moderator, ruleset="witchhunt", title="Soon", seats_count=8, seed=3,
            deal={"mode": "explicit", "cards": cards}, signups_close_at=T0 + timedelta(days=3),
        )  # fmt: skip
        services.game_join(game=game, user=member)
    address = _address(member)
    (before,) = _events(Client().get(address))
    moved = T0 + timedelta(hours=1)
    with time_machine.travel(moved, tick=False):
        signups_settings_set(
            game=game, by=moderator, starts_at=T0 + timedelta(days=5), min_finished_games=0,
            start_when_full=False, prod_after=None,
        )  # fmt: skip
    (after,) = _events(Client().get(address))
    assert after["UID"] == before["UID"]
    assert (after.decoded("SEQUENCE"), after.decoded("DTSTAMP")) == (1, moved)
    assert after.decoded("DTSTART") == T0 + timedelta(days=5)
