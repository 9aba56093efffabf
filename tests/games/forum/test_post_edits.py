"""Issue 31's short edit window: an author edits their own post for a few minutes while
they could still post it; the post shows "edited"; every version is kept for the moderator
and, after the end, everyone; a quote made before keeps the original; an edit tells no one
and a room post's edit moves nothing public."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.cache import caches
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import GameRuleError
from games.models import Game, Notification, PostVersion
from games.selectors import post_quote
from games.selectors.live import live_version

pytestmark = pytest.mark.django_db


def _edit(game, user, number, body, thread="public"):
    return services.post_edit(game=game, user=user, thread=thread, number=number, body=body)


def test_an_author_edits_their_post_and_every_version_is_kept(cast_game, cast_users):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="I am **town**")
    _edit(cast_game, cast_users["ann"], post.number, "I am *very* town")
    _edit(cast_game, cast_users["ann"], post.number, "I am town, vote Bob")
    post.refresh_from_db()
    assert post.body == "I am town, vote Bob" and post.edited_at is not None
    versions = list(PostVersion.objects.filter(post=post).values_list("body", flat=True))
    assert versions == ["I am **town**", "I am *very* town"]


@pytest.mark.parametrize(
    "who, why",
    [("bob", "only edit your own posts"), ("ann_late", "edited for 5 minutes")],
)
def test_an_edit_is_refused_and_changes_nothing(cast_game, cast_users, who, why):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="first")
    user = cast_users[who.split("_")[0]]
    later = timezone.now() + timedelta(minutes=6 if who == "ann_late" else 0)
    with time_machine.travel(later), pytest.raises(GameRuleError, match=why):
        _edit(cast_game, user, post.number, "changed")
    post.refresh_from_db()
    assert post.body == "first" and post.edited_at is None
    assert not PostVersion.objects.exists()


def test_no_edit_after_the_phase_it_was_posted_in(cast_game, cast_users, moderator):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="by day")
    services.phase_advance(game=cast_game, by=moderator)
    cast_game.refresh_from_db()
    with pytest.raises(GameRuleError, match="phase it was posted in|at night"):
        _edit(cast_game, cast_users["ann"], post.number, "by night")


def test_an_edited_post_says_so_and_the_moderator_reads_every_version(
    client, cast_game, cast_users, moderator
):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="original words")
    client.force_login(cast_users["dan"])
    page = reverse("game_detail", args=[cast_game.pk]) + "?page=1"
    assert "post__edited" not in client.get(page).content.decode()  # cached now
    _edit(cast_game, cast_users["ann"], post.number, "better words")
    html = client.get(page).content.decode()  # the cached page made anew
    assert "better words" in html and "original words" not in html
    assert 'class="post__edited"' in html
    versions = reverse("game_post_versions", args=[cast_game.pk, post.number])
    assert client.get(versions).status_code == 404  # a player, while the game runs
    client.force_login(moderator)
    text = client.get(versions).content.decode()
    assert text.index("original words") < text.index("better words")


def test_a_quote_made_before_an_edit_keeps_the_original(cast_game, cast_users):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="I saw Bob")
    quote = post_quote(cast_game, post.number, {"ann": "Ann"})
    quoting = services.post_create(game=cast_game, user=cast_users["bob"], body=quote + "Lies.")
    _edit(cast_game, cast_users["ann"], post.number, "I saw nothing")
    quoting.refresh_from_db()
    assert "I saw Bob" in quoting.body_html


def test_an_edit_tells_no_one_of_a_new_mention(cast_game, cast_users):
    def told():
        return [Notification.objects.filter(user=cast_users[n]).count() for n in ("bob", "cat")]

    before = told()
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="hello @Bob")
    assert told() == [before[0] + 1, before[1]]  # posting tells Bob of his mention
    _edit(cast_game, cast_users["ann"], post.number, "hello @Bob and @Cat")
    post.refresh_from_db()
    assert "#player-cat" in post.body_html  # linked, as posting links it
    assert told() == [before[0] + 1, before[1]]  # no one told again, nor anew


def test_a_room_post_edit_moves_nothing_public(cast_game, cast_users):
    post = services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="Eve")
    cast_game.refresh_from_db()
    before = live_version(cast_game.pk, cast_users["dan"]).tag
    counters = (cast_game.public_changes, cast_game.posts_edited)
    _edit(cast_game, cast_users["bob"], post.number, "Eve tonight", thread="coven")
    cast_game.refresh_from_db()
    assert (cast_game.public_changes, cast_game.posts_edited) == counters
    assert live_version(cast_game.pk, cast_users["dan"]).tag == before


def test_the_edit_page_saves_and_the_box_offers_it(client, cast_game, cast_users):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="typo hre")
    client.force_login(cast_users["ann"])
    caches["pages"].clear()
    url = reverse("game_post_edit", args=[cast_game.pk, post.number])
    assert (
        url in client.get(reverse("game_detail", args=[cast_game.pk]) + "?page=1").content.decode()
    )
    assert "typo hre" in client.get(url).content.decode()
    response = client.post(url, {"body": "typo here"})
    assert response.status_code == 302
    post.refresh_from_db()
    assert post.body == "typo here"
    client.force_login(cast_users["bob"])
    assert client.get(url).status_code == 404  # not Bob's


def test_the_box_asks_for_a_post_to_edit_only_of_a_seat_that_posted_this_phase(
    cast_game, cast_users, django_assert_num_queries
):
    """The seat's own record says whether it posted this phase within the window: a seat
    that has not costs its page no query for the edit window."""
    from games.selectors.forum import editable_post
    from games.selectors.seats import seats_listed

    def ann_seat():
        return next(s for s in seats_listed(cast_game) if s.name == "ann")

    seat = ann_seat()
    with django_assert_num_queries(0):
        assert editable_post(cast_game, seat) is None
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="hello")
    seat = ann_seat()
    with django_assert_num_queries(1):
        assert editable_post(cast_game, seat).number == post.number
    later = timezone.now() + timedelta(minutes=settings.POST_EDIT_MINUTES, seconds=1)
    with time_machine.travel(later), django_assert_num_queries(0):
        assert editable_post(cast_game, seat) is None  # the window closed


def test_the_live_refresh_brings_an_edited_post(client, cast_game, cast_users):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="before edit")
    client.force_login(cast_users["dan"])
    live = reverse("game_live", args=[cast_game.pk])
    old = client.get(live, {"after": post.number})["ETag"]
    _edit(cast_game, cast_users["ann"], post.number, "after edit")
    response = client.get(live, {"after": post.number}, HTTP_IF_NONE_MATCH=old)
    assert response.status_code == 200
    assert f'data-edited-post="{post.number}"><p>after edit</p>' in response.content.decode()


def test_every_version_is_open_to_all_after_the_end(client, cast_game, cast_users):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="then")
    _edit(cast_game, cast_users["ann"], post.number, "now")
    Game.objects.filter(pk=cast_game.pk).update(status=Game.Status.FINISHED)
    client.logout()
    html = client.get(reverse("game_post_versions", args=[cast_game.pk, post.number]))
    assert "then" in html.content.decode() and "now" in html.content.decode()


def test_a_hidden_posts_versions_stay_the_moderators_after_the_end(
    client, cast_game, cast_users, moderator
):
    post = services.post_create(game=cast_game, user=cast_users["ann"], body="rude")
    _edit(cast_game, cast_users["ann"], post.number, "ruder")
    services.post_hide(game=cast_game, thread="public", number=post.number, by=moderator)
    Game.objects.filter(pk=cast_game.pk).update(status=Game.Status.FINISHED)
    url = reverse("game_post_versions", args=[cast_game.pk, post.number])
    client.force_login(cast_users["bob"])
    assert client.get(url).status_code == 404
    client.force_login(moderator)
    assert "rude" in client.get(url).content.decode()
