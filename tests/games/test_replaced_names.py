"""A replaced player (W-72) keeps their name on what they wrote and did: "Ann (replaced by
Zoe)" from then on, while the newcomer's own posts and votes are Zoe's; and the newcomer's
role email describes the phase the game is in, not its start."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from tests.factories import UserFactory
from tests.games.conftest import T0, make_game
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def replaced(traveller, moderator, cast_users):
    """Day 1: Ann posts (#2) and votes for Bob, Bob answers (#3); Zoe takes Ann's seat (the
    moderator's notice, #4), posts (#5) and votes for Cat."""
    game = make_game(moderator, cast_users)
    zoe = UserFactory(player_name="Zoe")
    steps = [
        lambda: services.post_create(game=game, user=cast_users["ann"], body="Ann speaking."),
        lambda: services.vote_cast(game=game, user=cast_users["ann"], target="bob"),
        lambda: services.post_create(game=game, user=cast_users["bob"], body="Why me?"),
        lambda: services.player_replace(game=game, seat_name="ann", new_user=zoe, by=moderator),
        lambda: services.post_create(game=game, user=zoe, body="Zoe here now."),
        lambda: services.vote_cast(game=game, user=zoe, target="cat"),
    ]
    for hour, step in enumerate(steps, start=1):
        traveller.move_to(T0 + timedelta(hours=hour))
        step()
    return game


POST = r'class="post__author" id="p\d+-by">([^<]+)</span>.*?<div class="post__body"><p>([^<]+)</p>'


def _authors(html):
    """Each player's post's text: its author as shown."""
    return dict(
        (body, author)
        for author, body in re.findall(POST, html, re.S)
        if "replaces" not in body  # the moderator's notices
    )


def test_posts_before_a_replacement_keep_their_writers_name(client, replaced):
    html = client.get(reverse("game_detail", args=[replaced.pk])).content.decode()
    assert _authors(html) == {
        "Ann speaking.": "Ann (replaced by Zoe)",
        "Why me?": "Bob",
        "Zoe here now.": "Zoe",
    }
    assert "Zoe replaces Ann." in html  # the moderator's notice


def test_votes_before_a_replacement_keep_their_voters_name(client, replaced):
    for url in (
        reverse("game_detail", args=[replaced.pk]),
        reverse("game_votes_day", args=[replaced.pk, 1]),
    ):
        html = client.get(url).content.decode()
        assert "Ann (replaced by Zoe) votes to lynch Bob." in html
        assert "Zoe votes to lynch Cat." in html
        assert "Zoe votes to lynch Bob." not in html


def test_the_count_as_of_a_post_names_the_player_of_the_time(client, replaced):
    # By Bob's post (#3) Ann had voted; from the moderator's notice (#4) the seat is Zoe's,
    # and so is its vote.
    html = client.get(reverse("game_votes_at_post", args=[replaced.pk, 3])).content.decode()
    assert re.search(r"Bob</strong> \(1\):\s*Ann \(replaced by Zoe\)</span>", html)
    html = client.get(reverse("game_votes_at_post", args=[replaced.pk, 4])).content.decode()
    assert re.search(r"Bob</strong> \(1\):\s*Zoe</span>", html)
    # The vote count on the game page is today's: the seat's vote is Zoe's.
    page = client.get(reverse("game_detail", args=[replaced.pk])).content.decode()
    assert re.search(r"Cat</strong> \(1\):\s*Zoe", page)


def test_a_replaced_seat_replaced_again_names_each_writer(client, replaced, moderator):
    ivan = UserFactory(player_name="Ivan")
    services.player_replace(game=replaced, seat_name="ann", new_user=ivan, by=moderator)
    html = client.get(reverse("game_detail", args=[replaced.pk])).content.decode()
    assert _authors(html) == {
        "Ann speaking.": "Ann (replaced by Ivan)",
        "Why me?": "Bob",
        "Zoe here now.": "Zoe (replaced by Ivan)",
    }
    history = client.get(reverse("game_votes_day", args=[replaced.pk, 1])).content.decode()
    assert "Ann (replaced by Ivan) votes to lynch Bob." in history
    assert "Zoe (replaced by Ivan) votes to lynch Cat." in history


@pytest.fixture
def eager_tasks():
    """Tasks queued on commit run at once, in this process (the worker's code path)."""
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def test_the_replacements_role_email_describes_the_phase_under_way(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
    services.phase_advance(game=game, by=moderator)  # Night 1
    mail.outbox.clear()
    zoe = UserFactory(player_name="Zoe")
    with django_capture_on_commit_callbacks(execute=True):
        services.player_replace(game=game, seat_name="ann", new_user=zoe, by=moderator)
    [message] = mail.outbox
    assert message.to == [zoe.email]
    assert "has started" not in message.subject and "has started" not in message.body
    assert "taken over a seat" in message.subject
    assert "It is Night 1; it ends" in message.body
    html = message.alternatives[0][0]
    assert "It is Night 1; it ends" in html and "Day 1 ends" not in html
