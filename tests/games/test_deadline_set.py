"""The moderator's exact deadline (services.clock.deadline_set and its form on the desk):
a moment typed in the moderator's own zone, checked, moved like extend and shorten (W-3's
midnight stays halfway), one public post; and one post for each other clock change."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.engine import GameRuleError
from games.mapping import engine_state
from games.models import Game, Post
from games.selectors.desk import moderator_log
from games.services.clock import deadline_set
from tests.games import said
from tests.games.conftest import T0, make_game

DAY = timedelta(hours=72)
NIGHT = timedelta(hours=24)


def _fresh(game):
    return Game.objects.get(pk=game.pk)


def _posts(game):
    return Post.objects.filter(game=game).count()


def _night(game, at):
    services.phase_advance(game=game, by=game.host, now=at)
    return _fresh(game)


# --- the service ----------------------------------------------------------------------------
def test_deadline_set_moves_the_deadline_to_the_moment_with_one_post(game, moderator):
    before = _posts(game)
    at = T0 + timedelta(hours=30)  # Tue 3 Mar, 24:00 UTC
    deadline_set(game=game, by=moderator, at=at, shown=game.deadline_at)
    game = _fresh(game)
    assert game.deadline_at == at and game.phase == "day 1"
    assert _posts(game) == before + 1
    post = Post.objects.filter(game=game).latest("number")
    assert post.kind == Post.Kind.MODERATOR and post.author == moderator
    # The text keeps UTC words (a search finds them); the HTML carries the instant.
    sentence = "The moderator set the deadline of day 1: it now ends "
    assert said.text(post) == sentence + "Wed 04 Mar, 00:00 UTC."
    assert said.html(post) == (
        f'<p>{sentence}<time datetime="2026-03-04T00:00:00Z">Wed 04 Mar, 00:00 UTC</time>.</p>'
    )
    # A moderator act like the others (W-72's log).
    assert [a.post for a in moderator_log(game, {})] == [post]
    # The reminders follow the new deadline (the 24 h one, 6 h from now).
    assert game.next_reminder_at == at - timedelta(hours=24)


def test_deadline_set_keeps_midnight_halfway_through_the_night(game, traveller, moderator):
    game = _night(game, T0)
    deadline_set(game=game, by=moderator, at=T0 + NIGHT + timedelta(hours=6))
    game = _fresh(game)
    assert game.deadline_at == T0 + NIGHT + timedelta(hours=6)
    assert game.midnight_at == T0 + NIGHT / 2 + timedelta(hours=3)


def test_deadline_set_earlier_passes_a_midnight_it_moves_behind_us(game, traveller, moderator):
    game = _night(game, T0)
    traveller.move_to(T0 + timedelta(hours=10))  # 2 h before midnight
    deadline_set(game=game, by=moderator, at=T0 + timedelta(hours=18))
    game = _fresh(game)
    assert game.deadline_at == T0 + timedelta(hours=18)
    assert game.midnight_at is None  # the new midpoint, 9 h, was already past
    assert engine_state(game).midnight and game.phase == "night 1"


@pytest.mark.parametrize(
    ("at", "words"),
    [
        (T0 - timedelta(hours=1), "at least a minute from now"),
        (T0 + timedelta(seconds=30), "at least a minute from now"),
        (T0 + timedelta(days=14, minutes=1), "at most 14 days from now"),
        (T0 + DAY + timedelta(seconds=20), "that is the deadline already"),
    ],
)
def test_deadline_set_refuses_a_moment_out_of_bounds(game, moderator, at, words):
    before = _posts(game)
    with pytest.raises(GameRuleError, match=words):
        deadline_set(game=game, by=moderator, at=at, shown=game.deadline_at)
    assert _fresh(game).deadline_at == T0 + DAY and _posts(game) == before


def test_deadline_set_refuses_a_stale_form_a_paused_clock_and_anyone_but_the_moderator(
    game, moderator, cast_users
):
    at = T0 + timedelta(hours=30)
    before = _posts(game)
    with pytest.raises(GameRuleError, match="the deadline has moved since this page was loaded"):
        deadline_set(game=game, by=moderator, at=at, shown=T0 + DAY - timedelta(hours=1))
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        deadline_set(game=game, by=cast_users["ann"], at=at)
    assert _posts(game) == before
    services.clock_pause(game=game, by=moderator)
    with pytest.raises(GameRuleError, match="the clock is paused: resume it"):
        deadline_set(game=game, by=moderator, at=at)
    assert _fresh(game).deadline_at == T0 + DAY and _posts(game) == before + 1  # the pause's


def test_every_clock_change_makes_exactly_one_post(traveller, moderator, cast_users):
    game = make_game(moderator, cast_users, early_end=True)
    changes = [
        lambda g: services.clock_extend(game=g, by=moderator, delta=timedelta(hours=1)),
        lambda g: services.clock_shorten(game=g, by=moderator, delta=timedelta(hours=2)),
        lambda g: deadline_set(game=g, by=moderator, at=T0 + timedelta(hours=50)),
        lambda g: services.clock_pause(game=g, by=moderator),
        lambda g: services.clock_resume(game=g, by=moderator),
    ]
    for change in changes:
        before = _posts(game)
        change(_fresh(game))
        assert _posts(game) == before + 1
    # W-2a's early end: the last living player's "done" moves the deadline, in one post.
    seats = [n for n in cast_users if n != "hal"]
    for name in seats:
        services.phase_lock_in(game=_fresh(game), user=cast_users[name])
    before = _posts(game)
    assert services.phase_lock_in(game=_fresh(game), user=cast_users["hal"]) is True
    assert _posts(game) == before + 1
    notice = Post.objects.filter(game=game).latest("number")
    assert notice.kind == Post.Kind.SYSTEM
    assert '<p class="post__announcement">Every living player is done with day 1: it now ends ' in (
        said.html(notice)
    )
    assert '<time datetime="2026-03-02T19:00:00Z">Mon 02 Mar, 19:00 UTC</time>' in said.html(notice)


# --- the form and the view ------------------------------------------------------------------
def _desk(game):
    return reverse("game_desk", args=[game.pk])


def _set(client, game, at, shown=None):
    shown = shown or _fresh(game).deadline_at.isoformat()
    return client.post(
        reverse("clock_deadline", args=[game.pk]),
        {"at": at, "deadline": shown, "next": _desk(game)},
        follow=True,
    )


def _berlin(user, zone="Europe/Berlin"):
    user.time_zone = zone
    user.save(update_fields=["time_zone"])


def test_the_desk_offers_the_deadline_in_the_moderators_zone(game, client, moderator):
    _berlin(moderator)
    client.force_login(moderator)
    html = client.get(_desk(game)).content.decode()
    # Day 1 ends Thu 5 Mar, 18:00 UTC: 19:00 in Berlin.
    assert 'type="datetime-local"' in html
    assert 'name="at" value="2026-03-05T19:00"' in html
    assert "Your time zone: Europe/Berlin." in html
    assert f'name="deadline" value="{game.deadline_at.isoformat()}"' in html


def test_the_form_reads_the_moment_in_the_moderators_zone(game, client, moderator):
    _berlin(moderator)
    client.force_login(moderator)
    assert client.get(reverse("clock_deadline", args=[game.pk])).status_code == 405
    text = _set(client, game, "2026-03-04T10:30").content.decode()
    assert "The deadline is set." in text
    assert _fresh(game).deadline_at == T0.replace(day=4, hour=9, minute=30)  # 10:30 CET


def test_the_form_refuses_a_time_the_clocks_skip_or_pass_twice(game, client, moderator):
    _berlin(moderator, "America/New_York")
    client.force_login(moderator)
    # New York's clocks go from 02:00 to 03:00 on Sun 8 Mar 2026.
    text = _set(client, game, "2026-03-08T02:30").content.decode()
    assert "Sun 08 Mar 2026, 02:30 does not exist in America/New_York" in text
    _berlin(moderator)
    # Berlin's go back from 03:00 to 02:00 on Sun 25 Oct 2026.
    text = _set(client, game, "2026-10-25T02:30").content.decode()
    assert "Sun 25 Oct 2026, 02:30 happens twice in Europe/Berlin" in text
    text = _set(client, game, "tomorrow").content.decode()
    assert "Give the new deadline as a date and a time." in text
    assert _fresh(game).deadline_at == T0 + DAY
    assert not Post.objects.filter(game=game, kind=Post.Kind.MODERATOR).exists()


def test_the_form_refuses_a_stale_deadline_and_a_player(game, client, moderator, cast_users):
    client.force_login(moderator)
    stale = (T0 + DAY - timedelta(hours=1)).isoformat()
    text = _set(client, game, "2026-03-04T10:30", shown=stale).content.decode()
    assert "The deadline has moved since this page was loaded: nothing was changed." in text
    client.force_login(cast_users["ann"])
    text = _set(client, game, "2026-03-04T10:30").content.decode()
    assert "Only the game&#x27;s moderator can change its clock." in text
    assert _fresh(game).deadline_at == T0 + DAY
