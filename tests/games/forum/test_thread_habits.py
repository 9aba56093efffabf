"""Issue 31's habits on the game page: each player's post counts in the player list (this
day's and the whole game's, one query for all seats) and the vote markers between the
public thread's posts, from the public votes only."""

import re

import pytest
from django.core.cache import caches
from django.urls import reverse

from games import services
from games.selectors.forum import MARKERS_SHOWN, PostCount, post_counts
from games.selectors.seats import seats_listed
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _page(client, user, game):
    client.force_login(user)
    caches["pages"].clear()
    return client.get(reverse("game_detail", args=[game.pk])).content.decode()


def _player_line(html, seat):
    return re.search(rf'<li class="player[^"]*" id="player-{seat}">(.*?)</li>', html, re.S)[1]


def test_post_counts_show_a_lurker_beside_the_talkers(client, cast_game, cast_users):
    for text in ("one", "two"):
        services.post_create(game=cast_game, user=cast_users["ann"], body=text)
    services.post_create(game=cast_game, user=cast_users["bob"], body="three")
    html = _page(client, cast_users["cat"], cast_game)
    assert "2 this day · 2 posts in all" in _player_line(html, "ann")
    assert "1 this day · 1 post in all" in _player_line(html, "bob")
    assert "0 this day · 0 posts in all" in _player_line(html, "dan")  # the lurker


def test_post_counts_split_this_day_from_the_game(cast_game, cast_users, moderator):
    services.post_create(game=cast_game, user=cast_users["ann"], body="day one")
    services.phase_advance(game=cast_game, by=moderator)  # night 1
    services.phase_advance(game=cast_game, by=moderator)  # day 2
    cast_game.refresh_from_db()
    services.post_create(game=cast_game, user=cast_users["ann"], body="day two")
    seats = list(seats_listed(cast_game))
    counts = {s.name: post_counts(cast_game, seats)[s.pk] for s in seats}
    assert (counts["ann"].day, counts["ann"].game) == (1, 2)


def test_post_counts_read_nothing_more_than_the_seats(
    cast_game, cast_users, django_assert_num_queries
):
    """The seats carry their counts (services.posts keeps them): a long thread is never
    counted for the player list."""
    services.post_create(game=cast_game, user=cast_users["ann"], body="hi")
    seats = list(seats_listed(cast_game))
    with django_assert_num_queries(0):
        counts = post_counts(cast_game, seats)
    assert counts[seats[0].pk] == PostCount(1, 1)


def test_a_replacement_starts_at_no_posts(cast_game, cast_users, moderator):
    services.post_create(game=cast_game, user=cast_users["ann"], body="bye")
    zoe = UserFactory(player_name="Zoe")
    services.player_replace(game=cast_game, seat_name="ann", new_user=zoe, by=moderator)
    seats = list(seats_listed(cast_game))
    assert post_counts(cast_game, seats)[seats[0].pk] == PostCount(0, 0)
    services.post_create(game=cast_game, user=zoe, body="hello")
    seats = list(seats_listed(cast_game))
    assert post_counts(cast_game, seats)[seats[0].pk] == PostCount(1, 1)


def _markers(html):
    return re.findall(r'<li class="vote-marker" id="p\d+-m\d+">(.*?)</li>', html)


def test_a_vote_marker_lands_between_the_posts_it_came_between(client, cast_game, cast_users):
    services.post_create(game=cast_game, user=cast_users["ann"], body="before")
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="bob")
    services.post_create(game=cast_game, user=cast_users["bob"], body="after")
    services.vote_withdraw(game=cast_game, user=cast_users["cat"])
    services.post_create(game=cast_game, user=cast_users["cat"], body="changed my mind")
    html = _page(client, cast_users["dan"], cast_game)
    # Eight living: a majority is five (W-4), so two votes leave Bob at L-3.
    assert _markers(html) == ["Ann votes Bob · L-4", "Cat votes Bob · L-3", "Cat unvotes"]
    before, after = html.index(">before<"), html.index(">after<")
    first = html.index("Ann votes Bob")
    assert before < first < html.index("Cat votes Bob") < after < html.index("Cat unvotes")


def test_a_vote_after_the_last_post_is_marked_once_the_next_post_comes(
    client, cast_game, cast_users
):
    services.post_create(game=cast_game, user=cast_users["ann"], body="hello")
    client.force_login(cast_users["dan"])
    url = reverse("game_detail", args=[cast_game.pk]) + "?page=1"
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    assert _markers(client.get(url).content.decode()) == []  # not between posts yet
    services.post_create(game=cast_game, user=cast_users["bob"], body="why me")
    html = client.get(url).content.decode()  # the cached page made anew: a new last post
    assert _markers(html) == ["Ann votes Bob · L-4"]
    assert html.index(">hello<") < html.index("Ann votes Bob") < html.index(">why me<")


def test_a_long_run_of_markers_shows_its_last_few_and_counts_the_rest(
    client, cast_game, cast_users
):
    """Between two posts the last MARKERS_SHOWN moves show; the earlier ones are counted,
    with a link to their day's votes, before them (a burst would bury the posts)."""
    services.post_create(game=cast_game, user=cast_users["ann"], body="before")
    voters = ("ann", "bob", "cat", "dan")
    for voter in voters:  # eight moves: four votes on Eve, then each withdrawn
        services.vote_cast(game=cast_game, user=cast_users[voter], target="eve")
    for voter in voters:
        services.vote_withdraw(game=cast_game, user=cast_users[voter])
    services.post_create(game=cast_game, user=cast_users["eve"], body="after")
    html = _page(client, cast_users["fay"], cast_game)
    assert MARKERS_SHOWN == 5
    assert _markers(html) == [
        "Dan votes Eve · L-1",
        "Ann unvotes",
        "Bob unvotes",
        "Cat unvotes",
        "Dan unvotes",
    ]
    fold = r'<li class="vote-marker vote-marker--earlier" id="p\d+-e1">(.*?)</li>'
    earlier = re.findall(fold, html)
    day_1 = reverse("game_votes_day", args=[cast_game.pk, 1])
    link = f'<a href="{day_1}">Every vote of Day 1, in order</a>'
    assert earlier == [f"3 earlier vote moves left out. {link}"]
    assert html.index(">before<") < html.index("3 earlier vote moves") < html.index("Dan votes Eve")
    assert html.index("Dan unvotes") < html.index(">after<")


def test_no_marker_tells_a_hidden_vote(client, cast_game, cast_users):
    """Only day votes with a public audience become markers: a night's pack or coven vote
    and a secret action never do."""
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    services.post_create(game=cast_game, user=cast_users["bob"], body="why me")
    html = _page(client, cast_users["dan"], cast_game)
    assert _markers(html) == ["Ann votes Bob · L-4"]


def test_multi_quote_gives_every_chosen_post_as_the_quote_link_would(
    client, cast_game, cast_users, moderator
):
    one = services.post_create(game=cast_game, user=cast_users["ann"], body="first")
    two = services.post_create(game=cast_game, user=cast_users["bob"], body="second")
    hidden = services.post_create(game=cast_game, user=cast_users["cat"], body="secret")
    services.post_hide(game=cast_game, thread="public", number=hidden.number, by=moderator)
    client.force_login(cast_users["dan"])
    url = reverse("game_quotes", args=[cast_game.pk])
    numbers = [two.number, one.number, hidden.number, 999]
    text = client.get(url, {"n": numbers}).json()["text"]
    assert text == (
        f"> **Ann** wrote in #{one.number}:\n> first\n\n"
        f"> **Bob** wrote in #{two.number}:\n> second\n\n"
    )  # in thread order; the hidden and the missing passed by


def test_the_migration_counts_the_posts_of_games_played_before(cast_game, cast_users):
    from importlib import import_module

    from django.apps import apps

    from games.models import Seat

    for text in ("a", "b"):
        services.post_create(game=cast_game, user=cast_users["bob"], body=text)
    Seat.objects.update(posts_count=0, posts_day_count=0, posts_day="")
    import_module("games.migrations.0029_forum_conventions").seats_counted(apps, None)
    seats = list(seats_listed(cast_game))
    bob = next(s for s in seats if s.name == "bob")
    assert post_counts(cast_game, seats)[bob.pk] == PostCount(2, 2)
