"""The archive (issue 16): finished games, newest first, searchable by player, card, winner,
rules and date; each links its reveal, thread, rooms and record. A running game is never
in it, and its rooms, afterlife and record stay closed until it ends."""

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.archive.selectors import ARCHIVE_PAGE_SIZE, ArchiveFilter, archive_page
from games.selectors import room_ref
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text
from tests.games.profile_games import (
    AFTERLIFE_TALK,
    COVEN_TALK,
    NOTE_KEPT,
    NOTE_SHARED,
    village_wins,
    wolf_lynched,
    wolf_running,
)

pytestmark = pytest.mark.django_db

MARCH_2 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
MARCH_10 = datetime(2026, 3, 10, 23, 30, tzinfo=UTC)


@pytest.fixture
def archive(moderator, cast_users):
    """The named cast's game (Witchhunt, the Village, 2 March) and a Werewolf game (the
    Village, 10 March), both finished; a Werewolf game still running."""
    with time_machine.travel(MARCH_2, tick=False):
        cast = village_wins(moderator, cast_users)
    trio = [UserFactory(player_name=n) for n in ("Wil", "Xan", "Yul")]
    with time_machine.travel(MARCH_10, tick=False):
        inn = wolf_lynched(moderator, trio)
    running = wolf_running(moderator, [cast_users["ann"], UserFactory(player_name="Rex"),
                                       trio[1]])  # fmt: skip
    return cast, inn, running


def _titles(client, **query):
    text = page_text(client.get(reverse("archive"), query).content.decode())
    return [t for t in ("The named cast", "Three at the inn", "Still at the inn") if t in text]


def test_the_archive_lists_finished_games_newest_first(client, archive):
    response = client.get(reverse("archive"))
    assert response.status_code == 200
    text = page_text(response.content.decode())
    assert _titles(client) == ["The named cast", "Three at the inn"]
    assert text.index("Three at the inn") < text.index("The named cast")  # newest first
    assert "Still at the inn" not in text and "Rex" not in text


@pytest.mark.slow
@pytest.mark.parametrize(
    ("query", "found"),
    [
        ({"player": "ann"}, ["The named cast"]),  # Ann's running game is not listed
        ({"player": "ANN"}, ["The named cast"]),
        ({"player": "eve"}, ["The named cast"]),  # replaced out, still a player of it
        ({"player": "newbie"}, ["The named cast"]),
        ({"player": "xan"}, ["Three at the inn"]),
        ({"player": "rex"}, []),  # plays in a running game only
        ({"player": "nobody_at_all"}, []),
        ({"card": "priest"}, ["The named cast"]),
        ({"card": "elder_witch"}, ["The named cast"]),
        ({"card": "werewolf"}, ["Three at the inn"]),
        ({"card": "seer"}, []),
        ({"winner": "village"}, ["The named cast", "Three at the inn"]),
        ({"winner": "witches"}, []),
        ({"ruleset": "werewolf"}, ["Three at the inn"]),
        ({"finished_from": "2026-03-02", "finished_to": "2026-03-02"}, ["The named cast"]),
        ({"finished_from": "2026-03-03"}, ["Three at the inn"]),
        ({"finished_to": "2026-03-10"}, ["The named cast", "Three at the inn"]),
        ({"finished_to": "2026-03-09"}, ["The named cast"]),
        ({"player": "ann", "card": "werewolf"}, []),
        ({"finished_from": "not a date", "player": "xan"}, ["Three at the inn"]),
    ],
)
def test_the_archive_searches_each_way(client, archive, query, found):
    assert _titles(client, **query) == found


def test_a_field_in_error_says_so(client, archive):
    response = client.get(reverse("archive"), {"finished_from": "not a date", "card": "nope"})
    text = page_text(response.content.decode())
    assert "Enter a valid date." in text and "Select a valid choice." in text


def test_a_date_is_the_viewers_day(client, archive, cast_users):
    """10 March 23:30 UTC is 11 March in Tokyo: a member there finds it on the 11th."""
    viewer = cast_users["cat"]
    viewer.time_zone = "Asia/Tokyo"
    viewer.save()
    client.force_login(viewer)
    assert _titles(client, finished_from="2026-03-11") == ["Three at the inn"]
    assert _titles(client, finished_to="2026-03-10") == ["The named cast"]


def test_each_game_links_its_reveal_thread_rooms_and_record(client, archive):
    cast, _inn, _running = archive
    html = client.get(reverse("archive"), {"player": "ann"}).content.decode()
    for name in ("game_reveal", "game_detail", "game_record"):
        assert f'href="{reverse(name, args=[cast.pk])}"' in html
    for key in ("coven", "afterlife"):
        url = reverse("game_reveal_room", args=[cast.pk, room_ref(cast, key)])
        assert f'href="{url}"' in html
        assert client.get(url).status_code == 200
    assert f'href="{reverse("player_profile", args=["newbie"])}"' in html
    # The room's words are behind its link, not in the list.
    assert COVEN_TALK not in html


def test_after_the_end_every_room_and_the_record_are_public(client, archive):
    cast, _inn, _running = archive
    coven = client.get(reverse("game_reveal_room", args=[cast.pk, room_ref(cast, "coven")]))
    assert COVEN_TALK in coven.content.decode()
    beyond = client.get(reverse("game_reveal_room", args=[cast.pk, "afterlife"]))
    assert AFTERLIFE_TALK in beyond.content.decode()
    record = client.get(reverse("game_record", args=[cast.pk]))
    assert record.status_code == 200 and b'"elder_witch"' in record.content


def test_private_notes_stay_private_unless_shared(client, archive, cast_users):
    cast, _inn, _running = archive
    for path in (
        reverse("archive"),
        reverse("game_reveal", args=[cast.pk]),
        reverse("player_profile", args=["cat"]),
        reverse("player_profile", args=["dan"]),
    ):
        html = client.get(path).content.decode()
        assert NOTE_KEPT not in html, path
    assert NOTE_SHARED in client.get(reverse("game_reveal", args=[cast.pk])).content.decode()


# --- paging and queries --------------------------------------------------------------------------
def _many(moderator, n):
    """`n` finished three-seat games, one a day from 1 April: "Inn 1" the oldest."""
    for i in range(1, n + 1):
        with time_machine.travel(datetime(2026, 4, i, 12, 0, tzinfo=UTC), tick=False):
            players = [UserFactory(player_name=f"P{i}x{k}") for k in range(3)]
            wolf_lynched(moderator, players, title=f"Inn {i}")


@pytest.mark.slow
def test_the_archive_is_paged_newest_first(client, moderator):
    _many(moderator, ARCHIVE_PAGE_SIZE + 1)
    first = client.get(reverse("archive")).content.decode()
    titles = re.findall(r">Inn (\d+)</a></h3>", first)
    assert titles == [str(i) for i in range(ARCHIVE_PAGE_SIZE + 1, 1, -1)]
    assert 'rel="next"' in first and 'rel="prev"' not in first
    second = client.get(reverse("archive"), {"page": 2}).content.decode()
    assert re.findall(r">Inn (\d+)</a></h3>", second) == ["1"]
    assert 'rel="prev"' in second and 'rel="next"' not in second
    # A search keeps its terms from page to page.
    searched = client.get(reverse("archive"), {"winner": "village"}).content.decode()
    assert 'href="?winner=village&amp;page=2"' in searched
    # A page past the end is empty, never an error.
    far = client.get(reverse("archive"), {"page": "9999"})
    assert far.status_code == 200 and "No more games" in far.content.decode()
    for nonsense in ("99999999999999999999999", "-1", "x"):  # page 1
        html = client.get(reverse("archive"), {"page": nonsense}).content.decode()
        assert ">Inn 21</a></h3>" in html


def _count(client, query=None):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("archive"), query or {})
    assert response.status_code == 200
    return len(queries)


@pytest.mark.slow
def test_the_archives_query_count_does_not_grow_with_the_page(client, moderator, cast_users):
    with time_machine.travel(MARCH_2, tick=False):
        village_wins(moderator, cast_users)  # with rooms
    one = [_count(client), _count(client, {"player": "ann", "card": "priest"})]
    _many(moderator, ARCHIVE_PAGE_SIZE + 3)
    assert len(archive_page(ArchiveFilter()).rows) == ARCHIVE_PAGE_SIZE
    many = [_count(client), _count(client, {"winner": "village", "finished_from": "2026-01-01"})]
    assert one == many and max(many) <= 4, (one, many)


# --- a running game: out of the archive, its rooms and record closed ---------------------------
@pytest.fixture
def running_with_rooms(cast_game, cast_users):
    """The named cast on Night 1: Bob (the Elder) has written in the Coven's room, been
    lynched, and written in the afterlife."""
    u = cast_users
    services.room_post(game=cast_game, user=u["bob"], room="coven", body=COVEN_TALK)
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=u[voter], target="bob")
    services.room_post(game=cast_game, user=u["bob"], room="afterlife", body=AFTERLIFE_TALK)
    cast_game.refresh_from_db()
    assert cast_game.status == "running"
    return cast_game


@pytest.mark.slow
@pytest.mark.parametrize("viewer", ["anonymous", "outsider", "ann", "hal", "bob"])
def test_a_running_games_rooms_afterlife_and_record_stay_closed(
    client, running_with_rooms, cast_users, viewer
):
    game = running_with_rooms
    if viewer == "outsider":
        client.force_login(UserFactory(player_name="Outsider"))
    elif viewer != "anonymous":
        client.force_login(cast_users[viewer])
    closed = [
        reverse("game_reveal", args=[game.pk]),
        reverse("game_reveal_room", args=[game.pk, room_ref(game, "coven")]),
        reverse("game_reveal_room", args=[game.pk, "afterlife"]),
        reverse("game_record", args=[game.pk]),
    ]
    if viewer != "bob":  # the dead Bob's own afterlife is his (W-17)
        closed.append(reverse("game_afterlife", args=[game.pk]))
    for path in closed:
        assert client.get(path).status_code == 404, path
    for path in (reverse("archive"), reverse("archive") + "?player=bob"):
        html = client.get(path).content.decode()
        assert "The named cast" not in html and COVEN_TALK not in html


def test_a_running_games_record_is_its_moderators_alone(client, running_with_rooms, moderator):
    client.force_login(moderator)
    assert client.get(reverse("game_record", args=[running_with_rooms.pk])).status_code == 200


def test_the_lobby_and_the_game_page_lead_to_the_archive_and_profiles(client, archive):
    cast, _inn, _running = archive
    lobby = client.get(reverse("game_list")).content.decode()
    assert f'href="{reverse("archive")}"' in lobby
    page = client.get(reverse("game_detail", args=[cast.pk]) + "?page=1").content.decode()
    for key in ("ann", "bob", "newbie"):
        assert f'href="{reverse("player_profile", args=[key])}"' in page
