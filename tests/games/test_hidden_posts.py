"""A moderator hides a player's post (services/moderation.post_hide): every reader of its
thread, the cached page included, sees the reason in its place and never its text;
searches and quotes pass it by; the desk keeps the text and can show it again; only the
game's moderator may, and a refusal says why and changes nothing."""

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import GameRuleError
from games.models import Game, Post
from games.selectors.rooms import room_ref
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text, room_url

pytestmark = pytest.mark.django_db

LEAK = "My-card-says-Priest-9137"
REASON = "no quoting of cards"
SHOWN = f"The moderator hid this post: {REASON}"


def _html(client, user, url):
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(url, follow=True)  # a room's bare address goes to its last page
    assert response.status_code == 200
    return response.content.decode()


def _detail(game, query=""):
    return reverse("game_detail", args=[game.pk]) + query


@pytest.fixture
def leak(cast_game, cast_users):
    services.post_create(game=cast_game, user=cast_users["bob"], body="Morning all.")
    post = services.post_create(game=cast_game, user=cast_users["ann"], body=LEAK)
    return cast_game, post.number


def _hide(client, moderator, game, number, thread="public", reason=REASON):
    client.force_login(moderator)
    data = {"thread": thread, "number": str(number), "reason": reason}
    return client.post(reverse("game_desk_hide", args=[game.pk]), data, follow=True)


def test_every_reader_sees_the_reason_and_none_the_text(client, leak, cast_users, moderator):
    game, number = leak
    readers = (cast_users["ann"], cast_users["cat"], None)  # its author, a player, a visitor
    for reader in readers:  # each page made and cached before the hide
        assert LEAK in _html(client, reader, _detail(game, "?page=1"))
    response = _hide(client, moderator, game, number)
    assert f"Post #{number} is hidden" in page_text(response.content.decode())
    for reader in readers:
        for url in (_detail(game), _detail(game, "?page=1"), _detail(game, "?only=ann")):
            html = _html(client, reader, url)
            assert LEAK not in html and SHOWN in html
    assert Post.objects.get(game=game, number=number).body == LEAK  # kept for the desk


def test_search_and_quote_pass_a_hidden_post_by(client, leak, cast_users, moderator):
    game, number = leak
    bob = cast_users["bob"]
    assert f"#{number}" in page_text(_html(client, bob, _detail(game, "?q=Priest-9137")))
    assert LEAK in _html(client, bob, _detail(game, f"?quote={number}"))
    _hide(client, moderator, game, number)
    found = _html(client, bob, _detail(game, "?q=Priest-9137"))
    assert LEAK not in found and SHOWN not in found  # a match would tell of the text
    quoted = _html(client, bob, _detail(game, f"?quote={number}"))
    assert LEAK not in quoted
    assert f"quote={number}#" not in _html(client, bob, _detail(game, "?page=1"))


def test_a_room_post_is_hidden_from_its_members(client, cast_game, cast_users, moderator):
    bob = cast_users["bob"]
    post = services.room_post(game=cast_game, user=bob, room="coven", body=LEAK)
    room = room_url("game_room", cast_game, "coven")
    assert LEAK in _html(client, bob, room)
    assert "desk/?thread=" not in _html(client, bob, room)  # the Hide link is the moderator's
    # The moderator reads the room from the desk: its Hide link fills the desk's form in.
    ref = room_ref(cast_game, "coven")
    link = f"/games/{cast_game.pk}/desk/?thread={ref}&amp;hide={post.number}#hidden-title"
    assert link in _html(client, moderator, room_url("game_desk_room", cast_game, "coven"))
    desk = _html(client, moderator, link.replace("&amp;", "&"))
    assert f'<option value="{ref}" selected>' in desk
    assert f'inputmode="numeric" value="{post.number}"' in desk
    _hide(client, moderator, cast_game, post.number, thread=room_ref(cast_game, "coven"))
    html = _html(client, bob, room)
    assert LEAK not in html and SHOWN in html
    assert Post.objects.get(pk=post.pk).hidden_at is not None


def test_the_desk_keeps_the_text_and_shows_it_again(client, leak, cast_users, moderator):
    game, number = leak
    _hide(client, moderator, game, number)
    desk = page_text(_html(client, moderator, reverse("game_desk", args=[game.pk])))
    assert f"#{number} in the day thread by Ann · hidden by Mod" in desk
    assert REASON in desk and LEAK in desk
    # The reveal's moderator's log (W-72) names the act and its reason, not the text.
    acts = [a.text for a in selectors.moderator_log(game, selectors.game_display_names(game))]
    assert f"Hid Ann’s post #{number} in the day thread: {REASON}" in acts
    client.force_login(moderator)
    response = client.post(
        reverse("game_desk_show", args=[game.pk]),
        {"thread": "public", "number": str(number)},
        follow=True,
    )
    assert f"Post #{number} shows again" in page_text(response.content.decode())
    html = _html(client, cast_users["cat"], _detail(game, "?page=1"))
    assert LEAK in html and SHOWN not in html
    assert "No post is hidden." in page_text(
        _html(client, moderator, reverse("game_desk", args=[game.pk]))
    )
    # Both acts stay in the log, in order, with who did them and when.
    log = selectors.moderator_log(game, selectors.game_display_names(game))
    acts = [(a.text, a.by, a.phase) for a in log if "’s post" in a.text]
    assert acts == [
        (f"Hid Ann’s post #{number} in the day thread: {REASON}", "Mod", "day 1"),
        (f"Showed Ann’s post #{number} in the day thread again.", "Mod", "day 1"),
    ]


def test_only_the_games_moderator_may_hide(client, leak, cast_users):
    game, number = leak
    staff = UserFactory(player_name="Staffless", is_staff=True)
    for user in (cast_users["ann"], cast_users["bob"], staff):
        with pytest.raises(GameRuleError, match="only the game's moderator can hide a post"):
            services.post_hide(game=game, thread="public", number=number, by=user)
        client.force_login(user)
        url = reverse("game_desk_hide", args=[game.pk])
        assert client.post(url, {"thread": "public", "number": number}).status_code == 404
    client.logout()
    assert client.post(reverse("game_desk_show", args=[game.pk])).status_code == 404
    assert not Post.objects.filter(game=game, hidden_at__isnull=False).exists()
    assert Game.objects.get(pk=game.pk).posts_hidden == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("thread", "number", "reason", "said"),
    [
        ("public", "1", "", "Post #1 is not a player's post: only those can be hidden."),
        ("public", "999", "", "There is no post #999 in that thread."),
        ("public", "abc", "", "Type the post's number, as its # in the thread shows it."),
        ("nowhere", "3", "", "Choose the thread the post is in."),
        ("public", "3", "x" * 201, "Keep the reason under 200 characters."),
    ],
    ids=["system post", "no such post", "not a number", "no such thread", "long reason"],
)
def test_a_refused_hide_says_why_and_keeps_what_was_typed(
    client, leak, moderator, thread, number, reason, said
):
    game, _ = leak
    assert Post.objects.get(game=game, number=1).kind == Post.Kind.SYSTEM
    response = _hide(client, moderator, game, number, thread=thread, reason=reason)
    text = page_text(response.content.decode())
    assert said in text
    assert f'value="{number}"' in response.content.decode()  # what was typed stays
    assert not Post.objects.filter(game=game, hidden_at__isnull=False).exists()
    assert Game.objects.get(pk=game.pk).posts_hidden == 0


def test_a_post_is_hidden_once_and_shown_once(leak, moderator):
    game, number = leak
    services.post_hide(game=game, thread="public", number=number, by=moderator)
    with pytest.raises(GameRuleError, match=f"post #{number} is already hidden"):
        services.post_hide(game=game, thread="public", number=number, by=moderator)
    services.post_show(game=game, thread="public", number=number, by=moderator)
    with pytest.raises(GameRuleError, match=f"post #{number} is not hidden"):
        services.post_show(game=game, thread="public", number=number, by=moderator)
    assert Game.objects.get(pk=game.pk).posts_hidden == 2
    # Without a reason, the thread says only that the moderator hid it.
    services.post_hide(game=game, thread="public", number=number, by=moderator, reason="  ")
    post = Post.objects.get(game=game, number=number)
    assert post.hidden_reason == ""


def test_the_admin_hides_and_shows_through_the_service(client, leak):
    game, number = leak
    client.force_login(UserFactory(player_name="Root", is_staff=True, is_superuser=True))
    post = Post.objects.get(game=game, number=number)
    url = reverse("admin:games_post_changelist")
    client.post(url, {"action": "hide_posts", "_selected_action": [post.pk, game.posts.first().pk]})
    post.refresh_from_db()
    assert post.hidden_at is not None and post.hidden_by.player_name == "Root"
    assert Post.objects.filter(game=game, hidden_at__isnull=False).count() == 1  # not #1
    client.post(url, {"action": "show_posts", "_selected_action": [post.pk]})
    post.refresh_from_db()
    assert post.hidden_at is None


def test_what_changed_since_a_visit_gives_the_reason_not_the_first_line(
    client, cast_game, cast_users, moderator
):
    """The "since your last visit" page and the daily digest (the same selector) quote the
    first lines of new posts: a hidden one's is its reason."""
    cat = cast_users["cat"]
    client.force_login(cat)
    client.get(_detail(cast_game))  # her last visit
    post = services.post_create(game=cast_game, user=cast_users["ann"], body=LEAK)
    since = reverse("game_since", args=[cast_game.pk])
    services.post_hide(
        game=cast_game, thread="public", number=post.number, by=moderator, reason=REASON
    )
    text = page_text(client.get(since).content.decode())
    assert LEAK not in text and f"Ann: {SHOWN}" in text


def test_a_finished_games_post_can_be_hidden_from_the_archive(client, leak, moderator):
    """The thread stays readable by everyone once the game is over: a post found then to
    break the rules can still be hidden (the admin's action; the desk is a running game's)."""
    game, number = leak
    services.stalemate_declare(game=game, by=moderator)  # W-72b: the game is over
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    services.post_hide(game=game, thread="public", number=number, by=moderator, reason=REASON)
    html = _html(client, None, _detail(game, "?page=1"))
    assert LEAK not in html and SHOWN in html
    reveal = page_text(_html(client, None, reverse("game_reveal", args=[game.pk])))
    assert f"Hid Ann's post #{number} in the day thread: {REASON}" in reveal  # ’ as '
    assert LEAK not in reveal


def test_an_open_pages_poll_learns_of_the_hide(client, leak, cast_users, moderator):
    """The live refresh (static/js/live.js): a hide changes the game's version, and the
    poll's answer names the hidden post and its words, never its text."""
    game, number = leak
    client.force_login(cast_users["cat"])
    html = client.get(_detail(game)).content.decode()
    version = html.split('data-live-version="')[1].split('"')[0]
    poll = reverse("game_live", args=[game.pk]) + f"?after={number}&mode=append"
    headers = {"If-None-Match": f'"{version}"'}
    assert client.get(poll, headers=headers).status_code == 304
    services.post_hide(game=game, thread="public", number=number, by=moderator, reason=REASON)
    response = client.get(poll, headers=headers)
    assert response.status_code == 200
    answer = response.content.decode()
    assert f'<p data-hidden-post="{number}">{SHOWN}</p>' in answer and LEAK not in answer


def test_the_moderator_reaches_the_hide_form_from_the_thread(client, leak, cast_users, moderator):
    """A "Hide…" link on each player's post, for the moderator alone: the cached page of
    posts is made apart for them, so no player is served the link."""
    game, number = leak
    link = f"/games/{game.pk}/desk/?hide={number}#hidden-title"
    assert link in _html(client, moderator, _detail(game, "?page=1"))  # made and cached
    for reader in (cast_users["cat"], None):
        assert "desk/?hide=" not in _html(client, reader, _detail(game, "?page=1"))
    desk = _html(client, moderator, f"/games/{game.pk}/desk/?hide={number}")
    assert f'id="hide-number" name="number" inputmode="numeric" value="{number}"' in desk


def test_the_admins_post_actions_need_the_moderators_permission(client, leak):
    """Staff who may only view posts get no actions; the change permission on games (the
    moderators' own) offers them, and the services still check the game's moderator."""
    from django.contrib.auth.models import Permission

    staff = UserFactory(player_name="Viewer", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_post"))
    client.force_login(staff)
    url = reverse("admin:games_post_changelist")
    assert client.get(url).status_code == 200
    assert "hide_posts" not in client.get(url).content.decode()
    staff.user_permissions.add(Permission.objects.get(codename="change_game"))
    assert "hide_posts" in client.get(url).content.decode()
