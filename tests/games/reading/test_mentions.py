"""Mentions and quotes (issue 15): `@name` linked in a stored post (never in code or an
existing link, always escaped), and who is told: only readers of the thread, never the
author, once per post and person; a room's mention never reaches an outsider."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import services
from games.markup import render_markdown
from games.models import Notification
from games.permissions import AFTERLIFE
from games.reading.mentions import Target, mentioned_keys, mentions_link, quoted_numbers
from games.selectors.threads import post_quote
from tests.games.afterlife_cast import afterlife_users, play_to_day_3
from tests.games.conftest import forget_start_notices, make_game
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db

BOB = {"bob": Target("Bob", "/games/1/#player-bob")}


def _link(text, targets=BOB):
    return mentions_link(render_markdown(text), targets)


# --- parsing and linking (pure) -----------------------------------------------------------
def test_a_mention_becomes_a_link_to_the_player_whatever_its_case():
    html, found = _link("I think @BOB is lying, @bob.")
    assert html.count('<a href="/games/1/#player-bob">@Bob</a>') == 2
    assert found == ["bob"]


@pytest.mark.parametrize(
    "text",
    [
        "`@bob` in code",
        "```\n@bob in a fence\n```",
        "    @bob indented code",
        "[ask @bob](https://example.com/)",
        "<https://example.com/@bob>",
        "mail ann@bob.com",
        "write to bob@example.com",
        "@@bob",
        "@bobby is someone else",
        "@b is too short",
    ],
)
def test_no_mention_in_code_links_addresses_or_other_names(text):
    html, found = _link(text)
    assert found == []
    assert "#player-bob" not in html
    assert html == render_markdown(text)


def test_a_name_not_of_the_game_stays_text():
    html, found = _link("@cat and @bob")
    assert found == ["bob"]
    assert "@cat" in html and "player-cat" not in html


def test_mention_links_are_escaped_and_the_post_stays_escaped():
    evil = {"bob": Target('Bob"><script>x</script>', '/g/"onmouseover="x')}
    html, found = _link("@bob <script>alert(1)</script>", evil)
    assert found == ["bob"]
    assert "<script>" not in html
    assert 'href="/g/&quot;onmouseover=&quot;x"' in html
    assert "&lt;script&gt;alert(1)" in html


def test_mentions_and_quotes_are_found_once_each_and_capped():
    assert mentioned_keys("@Bob @bob @Cat") == ["bob", "cat"]
    assert len(mentioned_keys(" ".join(f"@p{i:02d}" for i in range(40)))) == 10
    text = (
        "> **Ann** wrote in #12:\n> hi\n\n> **Bob** wrote in #3:\n> yo\n\nnot > **X** wrote in #9:"
    )
    assert quoted_numbers(text) == [12, 3]


# --- who is told ----------------------------------------------------------------------------
@pytest.fixture
def game(moderator, cast_users):
    game = make_game(moderator, cast_users)
    forget_start_notices()
    return game


def _notes(user):
    return list(Notification.objects.filter(user=user).values_list("kind", "text"))


def test_a_mention_in_the_day_thread_notifies_the_player_and_links_their_seat(game, cast_users):
    ann, bob, cat = cast_users["ann"], cast_users["bob"], cast_users["cat"]
    post = services.post_create(game=game, user=ann, body="@BOB, and @ann (me), and @Mod?")
    assert f'<a href="/games/{game.pk}/#player-bob">@Bob</a>' in post.body_html
    assert "player-ann" in post.body_html  # linked, but nobody tells the author of herself
    assert _notes(bob) == [("mention", f"Ann mentioned you in the day thread (#{post.number}).")]
    assert _notes(ann) == [] and _notes(cat) == []
    assert not Notification.objects.filter(user=game.host).exists()  # no seat: not a player
    assert Notification.objects.get(user=bob).post == post


def test_a_mention_in_a_room_never_reaches_an_outsider(game, cast_users):
    fay, gus, ann = cast_users["fay"], cast_users["gus"], cast_users["ann"]
    services.room_post(game=game, user=fay, room="lovers-1", body="@gus: @Ann is odd, @Bob too")
    assert _notes(gus) == [("mention", "Fay mentioned you in The Lovers (#1).")]
    assert _notes(ann) == [] and _notes(cast_users["bob"]) == []
    assert Notification.objects.count() == 1


def test_the_afterlife_tells_the_dead_only_and_the_dead_still_read_the_day_thread(moderator):
    users = afterlife_users()
    game, newcomer = play_to_day_3(moderator, users)  # Ann and Bob are in the afterlife
    Notification.objects.all().delete()
    services.room_post(game=game, user=users["bob"], room=AFTERLIFE, body="@ann @cat @hal")
    assert [(n.user.player_name, n.kind) for n in Notification.objects.all()] == [
        ("Ann", "mention")
    ]
    # The dead read the public thread: a mention there reaches them. A replaced player
    # is no longer in the game; the one who took the seat is.
    post = services.post_create(game=game, user=users["cat"], body="RIP @Bob; hi @gus, @newcomer")
    told = Notification.objects.filter(post=post).values_list("user__player_name", flat=True)
    assert sorted(told) == ["Bob", "Newcomer"]
    assert f"/games/{game.pk}/#player-gus" in post.body_html  # Newcomer sits in Gus's seat
    assert "@gus" in post.body_html


def test_quoting_a_post_notifies_its_author_once(game, cast_users):
    ann, bob, cat = cast_users["ann"], cast_users["bob"], cast_users["cat"]
    first = services.post_create(game=game, user=ann, body="I am the Priest.")
    quote = post_quote(game, first.number, {"ann": "Ann"})
    reply = services.post_create(
        game=game, user=bob, body=quote + "Sure, @ann.", reply_to=first.number
    )
    assert _notes(ann) == [("quote", f"Bob quoted your post in the day thread (#{reply.number}).")]
    # The quote link's text alone (no reply) is a quote too; quoting oneself tells nobody.
    services.post_create(game=game, user=cat, body=quote + "Hm.")
    services.post_create(game=game, user=ann, body=quote + "Yes, me.")
    assert [k for k, _ in _notes(ann)] == ["quote", "quote"]
    assert _notes(bob) == [] and _notes(cat) == []


@pytest.fixture
def eager_tasks():
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def test_mention_emails_go_only_to_members_who_opted_in(
    game, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    bob, cat = cast_users["bob"], cast_users["cat"]
    bob.email_mentions = True
    bob.save(update_fields=["email_mentions"])
    with django_capture_on_commit_callbacks(execute=True):
        post = services.post_create(game=game, user=cast_users["ann"], body="@bob @cat vote!")
    assert Notification.objects.filter(user__in=[bob, cat]).count() == 2  # in-site: both
    assert [m.to for m in mail.outbox] == [[bob.email]]
    message = mail.outbox[0]
    assert f"Ann mentioned you in the day thread (#{post.number})." in message.body
    assert f"/games/{game.pk}/?page=1#p{post.number}\n" in message.body
    assert "vote!" not in message.body  # the words stay on the site
    assert "/email/unsubscribe/" in message.extra_headers["List-Unsubscribe"]
    # The one-click unsubscribe turns this email off.
    token = message.extra_headers["List-Unsubscribe"].split("/email/unsubscribe/")[1].rstrip("/>")
    response = Client().post(reverse("email_unsubscribe", args=[token]))
    assert response.status_code == 200
    bob.refresh_from_db()
    assert bob.email_mentions is False
