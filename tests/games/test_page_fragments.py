"""The game page's cached parts (games/views/fragments.py): readers alike are served the
same page of posts and vote history until the game changes, and never anything that is
another reader's (their notes, their zone's times, the links only a player gets)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.reading.services.notes import note_save
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _page(client, user, game, query="?page=1"):
    client.force_login(user)
    response = client.get(reverse("game_detail", args=[game.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def _posts(html):
    """The page's list of posts, as sent."""
    return re.search(r'<ol class="posts">.*?</ol>', html, re.S).group(0)


def _history(html):
    return re.search(r'<ol class="vote-history">.*?</ol>', html, re.S).group(0)


@pytest.fixture
def talk(cast_game, cast_users):
    for name, body in (("ann", "Good morning."), ("bob", "Hello all."), ("dan", "Eve?")):
        services.post_create(game=cast_game, user=cast_users[name], body=body)
    services.vote_cast(game=cast_game, user=cast_users["dan"], target="eve")
    return cast_game


def test_a_second_reader_gets_the_same_posts_without_their_query(client, talk, cast_users):
    first = _page(client, cast_users["bob"], talk)
    with CaptureQueriesContext(connection) as queries:
        second = _page(client, cast_users["cat"], talk)
    rows = [q["sql"] for q in queries if '"games_post"."body_html"' in q["sql"]]
    assert rows == []  # the posts came from the cache
    assert _posts(second) == _posts(first) and "Hello all." in _posts(second)
    assert _history(second) == _history(first)


def test_a_post_and_a_vote_show_on_the_next_read(client, talk, cast_users):
    before = _page(client, cast_users["bob"], talk)
    assert "New thought." not in before and "Eve votes" not in _history(before)
    services.post_create(game=talk, user=cast_users["ann"], body="New thought.")
    services.vote_cast(game=talk, user=cast_users["eve"], target="dan")
    after = _page(client, cast_users["bob"], talk)
    assert "New thought." in _posts(after)
    assert "Eve votes to lynch Dan." in _history(after)
    count = re.search(r'<ul class="vote-count">.*?</ul>', after, re.S).group(0)
    assert re.search(r"<strong>Dan</strong> \(1\):\s*Eve", count), count


def test_each_zone_gets_its_own_times(client, talk, cast_users):
    cat = cast_users["cat"]
    cat.time_zone = "Asia/Tokyo"
    cat.save(update_fields=["time_zone"])
    utc = _page(client, cast_users["bob"], talk)
    tokyo = _page(client, cat, talk)
    assert re.search(r"</time> UTC", _posts(utc)) and not re.search(r"</time> UTC", _posts(tokyo))
    assert re.search(r"</time> JST", _posts(tokyo)) and re.search(r"</time> JST", _history(tokyo))


@pytest.mark.parametrize("author_first", [True, False], ids=["author first", "other first"])
def test_a_readers_notes_never_reach_another_reader(client, talk, cast_users, author_first):
    note_save(
        game=talk, user=cast_users["ann"], seat="bob", read="scum", text="Too smooth.",
        shared=False,
    )  # fmt: skip
    readers = ["ann", "cat"] if author_first else ["cat", "ann"]
    pages = {name: _page(client, cast_users[name], talk) for name in readers}
    assert "Too smooth." in _posts(pages["ann"])
    assert "Too smooth." not in pages["cat"] and "scum read" not in pages["cat"]


def test_a_spectator_is_not_served_a_players_reply_links(client, talk, cast_users):
    player = _page(client, cast_users["bob"], talk)
    assert "reply=" in _posts(player)
    spectator = _page(client, UserFactory(player_name="Sid"), talk)
    assert "reply=" not in _posts(spectator) and "Hello all." in _posts(spectator)
    visitor = client.logout() or client.get(reverse("game_detail", args=[talk.pk]) + "?page=1")
    assert "reply=" not in _posts(visitor.content.decode())


def test_a_replacement_rewords_the_cached_posts(client, talk, cast_users, moderator):
    assert "Hello all." in _posts(_page(client, cast_users["cat"], talk))
    zoe = UserFactory(player_name="Zoe")
    services.player_replace(game=talk, seat_name="bob", new_user=zoe, by=moderator)
    assert "Bob (replaced by Zoe)" in _posts(_page(client, cast_users["cat"], talk))


def test_a_renamed_player_is_renamed_in_the_cached_posts(client, talk, cast_users):
    assert ">Dan</span>" in _posts(_page(client, cast_users["cat"], talk))
    dan = cast_users["dan"]
    dan.player_name = "Daniel"
    dan.save(update_fields=["player_name"])
    assert ">Daniel</span>" in _posts(_page(client, cast_users["cat"], talk))


def test_a_filtered_thread_is_made_for_its_reader(client, talk, cast_users):
    """A filter is never cached: its page reads its own posts."""
    _page(client, cast_users["cat"], talk)
    with CaptureQueriesContext(connection) as queries:
        html = _page(client, cast_users["cat"], talk, "?only=bob")
    assert [q for q in queries if '"games_post"."body_html"' in q["sql"]]
    assert "Hello all." in _posts(html) and "Good morning." not in _posts(html)



def _you(html):
    """The player list's row marked "you"."""
    row = r'id="player-(\w+)">(?:(?!</li>).)*<span class="badge">you</span>'
    return re.findall(row, html, re.S)


def test_each_reader_is_you_on_their_own_seat_only(client, talk, cast_users):
    assert _you(_page(client, cast_users["bob"], talk)) == ["bob"]
    assert _you(_page(client, cast_users["cat"], talk)) == ["cat"]
    assert _you(_page(client, UserFactory(player_name="Sid"), talk)) == []


def test_an_absence_shows_in_the_cached_player_list_at_once(client, talk, cast_users):
    from datetime import timedelta

    from django.utils import timezone

    from games.community.services.absences import absence_declare

    assert "badge--away" not in _page(client, cast_users["cat"], talk)
    today = timezone.now().date()
    absence_declare(user=cast_users["dan"], first_day=today, last_day=today + timedelta(days=2))
    assert "badge--away" in _page(client, cast_users["cat"], talk)


def test_a_vote_leaves_the_page_of_posts_cached(client, talk, cast_users):
    _page(client, cast_users["bob"], talk)
    services.vote_cast(game=talk, user=cast_users["eve"], target="dan")
    with CaptureQueriesContext(connection) as queries:
        html = _page(client, cast_users["cat"], talk)
    assert [q for q in queries if '"games_post"."body_html"' in q["sql"]] == []
    assert "Eve votes to lynch Dan." in _history(html) and "Hello all." in _posts(html)
