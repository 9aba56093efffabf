"""Ignore (games/reports): a member's posts collapse to one line that opens (<details>) for
whoever ignores them, in every thread kind (the public thread and its cached pages, the
live refresh, a room, the afterlife); never the vote count, the votes or the moderator's
and the site's posts; undone from the profile. In an anonymous game the ignore is the
seat's, shown by its alias and game alone."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.engine import GameRuleError
from games.models import Ignore, Post
from games.reports import selectors as report_selectors
from games.reports import services as reports
from games.selectors import room_ref
from tests.games.afterlife_cast import (
    AFTERLIFE_POST,
    LOVERS_POST,
    afterlife_users,
    page_text,
    play_to_day_3,
)
from tests.games.noninterference import normal

pytestmark = pytest.mark.django_db

BOB_SAYS = "Bob-says-7311"
FOLDED = re.compile(
    r'<details class="post__ignored"><summary>#(\d+) · A post by ([^,<]+), hidden by you'
)


def _html(client, user, url):
    client.force_login(user)
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def _votes(html):
    """The vote count's section, as text."""
    return page_text(html.split('id="votes-title"')[1].split("</section>")[0])


def _folded(html):
    """(number, name) of each post folded away on a page."""
    return [(int(n), name) for n, name in FOLDED.findall(html)]


def _ignore(client, user, game, number, ref="public"):
    client.force_login(user)
    return client.post(reverse("post_ignore", args=[game.pk, ref, number]), follow=True)


@pytest.fixture
def thread(game, cast_users, moderator):
    """Day 1, the time frozen: Bob posts, votes for Cat; the moderator posts; Cat posts."""
    cast_game = game
    u = cast_users
    bob = services.post_create(game=cast_game, user=u["bob"], body=BOB_SAYS)
    services.vote_cast(game=cast_game, user=u["bob"], target="cat")
    cast_game.refresh_from_db()
    notice = services.announcement_post(game=cast_game, by=moderator, body="Mod-note-1")
    cat = services.post_create(game=cast_game, user=u["cat"], body="Cat-says-1")
    return cast_game, bob.number, notice.number, cat.number


def test_an_ignored_players_posts_fold_on_the_game_page_and_nowhere_else(
    client, thread, cast_users
):
    game, bob, notice, cat = thread
    detail = reverse("game_detail", args=[game.pk])
    _html(client, cast_users["dan"], detail)  # made and cached; Dan has read it all
    before = _html(client, cast_users["dan"], detail)
    response = _ignore(client, cast_users["ann"], game, bob)
    assert "You ignore Bob" in page_text(response.content.decode())
    html = _html(client, cast_users["ann"], detail)
    assert _folded(html) == [(bob, "Bob")]
    assert BOB_SAYS in html  # inside the fold: opened without script
    assert "Mod-note-1" in html and "Cat-says-1" in html
    # The vote count still names Bob's vote, as every reader's does: no game information
    # is hidden.
    votes = _votes(html)
    assert "Bob" in votes and votes == _votes(_html(client, cast_users["dan"], detail))
    # Another reader, Bob himself, a visitor: the same page as before, byte for byte.
    assert normal(_html(client, cast_users["dan"], detail).encode()) == normal(before.encode())
    assert _folded(_html(client, cast_users["bob"], detail)) == []
    client.logout()
    assert _folded(client.get(detail).content.decode()) == []


def test_ignoring_nobody_is_remembered_and_forgotten_by_the_next_ignore(client, thread, cast_users):
    """A member who ignores nobody is known so from the cache: their game page asks
    nothing of the ignores. Their first ignore, and undoing it, show at once."""
    game, bob, notice, cat = thread
    ann, detail = cast_users["ann"], reverse("game_detail", args=[game.pk])
    _html(client, ann, detail)

    def ignore_queries():
        with CaptureQueriesContext(connection) as seen:
            html = _html(client, ann, detail)
        return html, [q for q in seen.captured_queries if "games_ignore" in q["sql"]]

    html, asked = ignore_queries()
    assert _folded(html) == [] and asked == []
    _ignore(client, ann, game, bob)
    html, asked = ignore_queries()
    assert _folded(html) == [(bob, "Bob")] and len(asked) == 1
    client.post(reverse("ignore_remove", args=[Ignore.objects.get(owner=ann).pk]))
    _html(client, ann, detail)  # learnt again: nobody
    html, asked = ignore_queries()
    assert _folded(html) == [] and asked == []


def test_the_moderators_and_the_sites_posts_never_fold(client, thread, cast_users, moderator):
    game, bob, notice, cat = thread
    notice_post = Post.objects.get(game=game, number=notice)
    with pytest.raises(GameRuleError, match="only a player's posts"):
        reports.ignore_from_post(post=notice_post, user=cast_users["ann"])
    client.force_login(cast_users["ann"])
    assert client.get(reverse("post_about", args=[game.pk, "public", notice])).status_code == 404
    # Even a moderator ignored as a member (they play elsewhere) keeps their posts here.
    Ignore.objects.create(owner=cast_users["ann"], member=moderator)
    _ignore(client, cast_users["ann"], game, bob)
    html = _html(client, cast_users["ann"], reverse("game_detail", args=[game.pk]))
    assert _folded(html) == [(bob, "Bob")]
    # And were the set ever to hold them, a moderator's post is not a player's.
    held = report_selectors.IgnoreSet(frozenset({moderator.pk}), frozenset({"bob"}))
    assert {"kind": "moderator", "author_id": moderator.pk, "seat": None} not in held
    assert {"kind": "system", "author_id": None, "seat": None} not in held
    assert {"kind": "player", "author_id": moderator.pk, "seat": "bob"} in held


def test_the_live_refresh_folds_new_posts_of_an_ignored_player(client, thread, cast_users):
    game, bob, notice, cat = thread
    _ignore(client, cast_users["ann"], game, bob)
    new = services.post_create(game=game, user=cast_users["bob"], body="Bob-again-2")
    live = reverse("game_live", args=[game.pk]) + f"?after={cat}&mode=append"
    assert _folded(_html(client, cast_users["ann"], live)) == [(new.number, "Bob")]
    assert _folded(_html(client, cast_users["dan"], live)) == []


def test_rooms_and_the_afterlife_fold_an_ignored_writer(client, moderator):
    users = afterlife_users()
    game, newcomer = play_to_day_3(moderator, users)
    # The afterlife: Ann (dead) ignores Bob from his post there.
    afterlife = reverse("game_afterlife", args=[game.pk])
    bobs = Post.objects.get(game=game, thread="afterlife", author=users["bob"])
    _ignore(client, users["ann"], game, bobs.number, ref="afterlife")
    html = _html(client, users["ann"], afterlife)
    assert _folded(html) == [(bobs.number, "Bob")] and AFTERLIFE_POST in html
    assert _folded(_html(client, users["bob"], afterlife)) == []
    # The Lovers' room: Fay ignores Gus, whose seat Newcomer has taken since (W-72): what Gus
    # wrote folds, what Newcomer writes does not.
    ref = room_ref(game, "lovers-1")
    guss = Post.objects.get(game=game, thread="lovers-1", author=users["gus"])
    _ignore(client, users["fay"], game, guss.number, ref=ref)
    services.room_post(game=game, user=newcomer, room="lovers-1", body="Newcomer-here-3")
    html = _html(client, users["fay"], reverse("game_room", args=[game.pk, ref]))
    assert [n for n, _ in _folded(html)] == [guss.number]
    assert "Newcomer-here-3" in html and LOVERS_POST in html
    # The room's readers get a "Report or ignore" link on each post; a read-only view none.
    assert f"/posts/{ref}/{guss.number}/" in html
    desk_room = _html(client, moderator, reverse("game_desk_room", args=[game.pk, ref]))
    assert "/posts/" not in desk_room


def test_stop_ignoring_from_the_profile(client, thread, cast_users):
    game, bob, notice, cat = thread
    ann = cast_users["ann"]
    _ignore(client, ann, game, bob)
    profile = _html(client, ann, reverse("profile"))
    ignore = Ignore.objects.get(owner=ann)
    assert f'data-ignored="{ignore.pk}"' in profile and "Whom you ignore" in profile
    assert "Bob" in page_text(profile.split('id="ignored-title"')[1])
    # Nobody but Ann can undo it; Ann can.
    client.force_login(cast_users["cat"])
    client.post(reverse("ignore_remove", args=[ignore.pk]))
    assert Ignore.objects.filter(pk=ignore.pk).exists()
    client.force_login(ann)
    response = client.post(reverse("ignore_remove", args=[ignore.pk]), follow=True)
    assert "You no longer ignore them" in page_text(response.content.decode())
    assert not Ignore.objects.exists()
    assert _folded(_html(client, ann, reverse("game_detail", args=[game.pk]))) == []


def test_ignore_refusals_say_why_and_write_nothing(client, thread, cast_users):
    game, bob, notice, cat = thread
    bob_post = Post.objects.get(game=game, number=bob)
    with pytest.raises(GameRuleError, match="you cannot ignore yourself"):
        reports.ignore_from_post(post=bob_post, user=cast_users["bob"])
    reports.ignore_from_post(post=bob_post, user=cast_users["ann"])
    response = _ignore(client, cast_users["ann"], game, bob)
    assert "You already ignore this player" in page_text(response.content.decode())
    assert Ignore.objects.count() == 1
    with pytest.raises(GameRuleError, match="you do not ignore that member"):
        reports.ignore_remove(user=cast_users["cat"], pk=Ignore.objects.get().pk)


def test_in_an_anonymous_game_the_ignore_is_the_seats_and_names_only_its_alias(
    client, thread, cast_users, monkeypatch
):
    # Anonymous games give a seat an `alias`; until then the seat's alias is read through
    # seat_alias, which this test gives Bob's seat.
    game, bob, notice, cat = thread

    def alias(seat):
        return "Elm" if seat is not None and seat.name == "bob" else ""

    monkeypatch.setattr(reports, "seat_alias", alias)
    monkeypatch.setattr(report_selectors, "seat_alias", alias)
    reports.ignore_from_post(post=Post.objects.get(game=game, number=bob), user=cast_users["ann"])
    ignore = Ignore.objects.get()
    assert ignore.member_id is None and ignore.seat.name == "bob"
    profile = page_text(
        _html(client, cast_users["ann"], reverse("profile")).split('id="ignored-title"')[1]
    )
    assert "Elm in The named cast" in profile and "Bob" not in profile
    assert _folded(_html(client, cast_users["ann"], reverse("game_detail", args=[game.pk]))) == [
        (bob, "Bob")
    ]


def test_folding_costs_one_query_whatever_the_number_of_posts(client, thread, cast_users):
    game, bob, notice, cat = thread
    _ignore(client, cast_users["ann"], game, bob)
    page = reverse("game_detail", args=[game.pk]) + "?page=1"
    counts = []
    for more in (0, 30):
        for i in range(more):
            services.post_create(game=game, user=cast_users["bob"], body=f"Bob-{i}")
        client.get(page)  # warm: the read marks' first visit
        with CaptureQueriesContext(connection) as queries:
            html = client.get(page).content.decode()
        counts.append(len(queries))
        assert len(_folded(html)) == 1 + more
    assert counts[0] == counts[1], counts
