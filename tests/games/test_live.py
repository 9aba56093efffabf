"""The game page's live refresh (games/views/live.py): an unchanged poll is a 304 at one
query of its own; a changed one sends the page's own partials, as the viewer may see them."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Post

pytestmark = pytest.mark.django_db


def _live(game):
    return reverse("game_live", args=[game.pk])


def _page_data(client, game):
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    found = dict(re.findall(r'data-live-(version|after|mode)="([^"]*)"', html))
    return found["version"], found["after"], found["mode"]


def _room_post(game, seat_user, body):
    seat = game.seats.get(user=seat_user)
    n = Post.objects.filter(game=game, thread="coven").count() + 1
    return Post.objects.create(game=game, thread="coven", number=n, kind="player", seat=seat,
                               author=seat_user, body=body, body_html=f"<p>{body}</p>",
                               phase=game.phase)  # fmt: skip


@pytest.mark.parametrize("signed_in", [True, False], ids=["player", "spectator"])
def test_an_unchanged_poll_is_a_304_at_one_query(client, cast_game, cast_users, signed_in):
    if signed_in:
        client.force_login(cast_users["ann"])
    version, after, mode = _page_data(client, cast_game)
    assert mode == "append" and int(after) >= 1
    headers = {"If-None-Match": f'"{version}"'}
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{_live(cast_game)}?after={after}&mode=append", headers=headers)
    assert response.status_code == 304
    assert response["ETag"] == f'"{version}"'
    mine = [q["sql"] for q in queries if "games_game" in q["sql"]]
    # The poll's own: one query (the game row and the thread's last number together). A
    # signed-in member's request also reads the user; the session comes from the cache.
    assert len(mine) == 1, mine
    assert len(queries) == (2 if signed_in else 1), [q["sql"] for q in queries]


def test_a_new_post_a_vote_or_a_room_post_change_what_the_poll_sends(
    client, cast_game, cast_users
):
    client.force_login(cast_users["ann"])
    version, after, _mode = _page_data(client, cast_game)
    headers = {"If-None-Match": f'"{version}"'}
    poll = f"{_live(cast_game)}?after={after}&mode=append"
    # A room's post is no change to the public page, and never shows.
    _room_post(cast_game, cast_users["bob"], "secret coven plans")
    assert client.get(poll, headers=headers).status_code == 304
    services.post_create(game=cast_game, user=cast_users["bob"], body="Bob says hello")
    response = client.get(poll, headers=headers)
    html = response.content.decode()
    assert response.status_code == 200 and response["ETag"] != f'"{version}"'
    assert "Bob says hello" in html and "secret coven" not in html
    assert f'id="p{int(after) + 1}"' in html and f'id="p{after}"' not in html
    assert 'data-live-part="votes"' in html and "Vote count" in html
    # Ann's own vote panel: her vote form, never anyone's card or role.
    assert 'name="target"' in html and "judge" not in html.lower()
    # The new ETag is what the next poll sends: nothing changed since.
    again = client.get(f"{_live(cast_game)}?after={int(after) + 1}&mode=append",
                       headers={"If-None-Match": response["ETag"]})  # fmt: skip
    assert again.status_code == 304
    # A vote changes the count (an input): the poll sends the new count.
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="dan")
    changed = client.get(poll, headers={"If-None-Match": response["ETag"]})
    assert changed.status_code == 200 and "Dan</strong> (1)" in changed.content.decode()


def test_posts_appended_by_the_poll_count_as_read_and_announced_ones_do_not(
    client, cast_game, cast_users
):
    from games.models import ReadMark

    client.force_login(cast_users["ann"])
    _version, after, _mode = _page_data(client, cast_game)
    mark = ReadMark.objects.get(user=cast_users["ann"], game=cast_game, thread="public")
    assert mark.last_number == int(after)
    services.post_create(game=cast_game, user=cast_users["bob"], body="Bob says hello")
    client.get(f"{_live(cast_game)}?after={after}&mode=notice")  # "1 new post — show"
    mark.refresh_from_db()
    assert mark.last_number == int(after)
    assert "Bob says hello" in client.get(
        f"{_live(cast_game)}?after={after}&mode=append"
    ).content.decode()
    mark.refresh_from_db()
    assert mark.last_number == int(after) + 1


def test_a_spectator_gets_the_public_fragment_without_a_vote_form(client, cast_game, cast_users):
    services.post_create(game=cast_game, user=cast_users["bob"], body="Hello all")
    response = client.get(f"{_live(cast_game)}?after=0&mode=append")
    html = response.content.decode()
    assert response.status_code == 200 and "Hello all" in html
    assert 'name="target"' not in html and "Reply</a>" not in html


def test_a_reader_not_on_the_last_page_is_told_how_many_posts_are_new(
    client, cast_game, cast_users
):
    last = Post.objects.filter(game=cast_game).order_by("-number").first().number
    for i in range(3):
        services.post_create(game=cast_game, user=cast_users["bob"], body=f"news {i}")
    html = client.get(f"{_live(cast_game)}?after={last}&mode=notice").content.decode()
    assert "3 new posts — show" in html and "news 0" not in html
    assert f"#p{last + 1}" in html


def test_no_such_game_is_a_404(client):
    assert client.get(reverse("game_live", args=[999999])).status_code == 404


def test_the_poll_appends_the_vote_markers_before_and_between_its_new_posts(
    client, cast_game, cast_users
):
    """Votes after the page's last post show once a post closes their run (as on a page
    made anew): the poll sends them before that post, each line with an id of its own so
    that the script appends it once."""
    services.post_create(game=cast_game, user=cast_users["ann"], body="first")
    client.force_login(cast_users["dan"])
    _version, after, _mode = _page_data(client, cast_game)
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    bob = services.post_create(game=cast_game, user=cast_users["bob"], body="why me")
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="bob")
    cat = services.post_create(game=cast_game, user=cast_users["cat"], body="because")
    html = client.get(f"{_live(cast_game)}?after={after}&mode=append").content.decode()
    lines = re.findall(r'<li class="(?:vote-marker|post[^"]*)" id="([^"]+)">', html)
    assert lines == [f"p{after}-m1", f"p{bob.number}", f"p{bob.number}-m1", f"p{cat.number}"]
    assert "Ann votes Bob · L-4" in html and "Cat votes Bob · L-3" in html
    # The page made anew shows the same lines under the same ids.
    page = client.get(reverse("game_detail", args=[cast_game.pk]) + "?page=1").content.decode()
    for line in (f'id="p{after}-m1">Ann votes Bob · L-4<', f'id="p{bob.number}-m1">Cat votes'):
        assert line in page
