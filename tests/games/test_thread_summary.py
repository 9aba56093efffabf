"""The thread reads as a host writes it (issue 14): one summary post per phase change (the
day's final vote count, the lynch or no lynch, what the night brought, the phase that
begins), each system post with an icon that fits; a vote history with times and post links;
and the vote count as it stood after any post."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.mapping import engine_state
from games.models import GameEvent, Post
from games.selectors import game_display_names, vote_count
from games.selectors.votes import day_final_count
from tests.factories import UserFactory
from tests.games import said
from tests.games.conftest import T0

pytestmark = pytest.mark.django_db


def _system_posts(game, after=0):
    return list(
        Post.objects.filter(game=game, thread="public", kind="system", number__gt=after).order_by(
            "number"
        )
    )


def _last_number(game):
    return Post.objects.filter(game=game, thread="public").count()


def _post_html(client, game, number):
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    found = re.search(
        rf'<li class="post post--\w+" id="p{number}">(.*?)</li>\s*(?=<li class="post|</ol>)',
        html,
        re.S,
    )
    assert found, number
    return found.group(1)


def _votes(game, users, pairs):
    for voter, target in pairs:
        if target is None:
            services.vote_withdraw(game=game, user=users[voter])
        else:
            services.vote_cast(game=game, user=users[voter], target=target)


# --- the summary post --------------------------------------------------------------------------
def test_the_days_end_is_one_post_with_the_final_count_no_lynch_and_the_night(
    client, cast_game, cast_users, moderator
):
    _votes(cast_game, cast_users, [("dan", "bob"), ("eve", "bob"), ("cat", "dan"),
                                   ("ann", "hal"), ("ann", None)])  # fmt: skip
    last = _last_number(cast_game)
    services.phase_advance(game=cast_game, by=moderator)
    made = _system_posts(cast_game, last)
    assert len(made) == 1
    assert said.text(made[0]).splitlines() == [
        "Final vote count of Day 1:",
        "- Bob (2): Dan, Eve",
        "- Dan (1): Cat",
        "- Not voting (5): Ann, Bob, Fay, Gus, Hal",
        "No lynch: nobody reached a majority.",
        "Night 1 begins.",
    ]
    html = _post_html(client, cast_game, made[0].number)
    assert 'post__icon--moon" aria-hidden="true"></span> Nightfall' in html
    assert "<li>Bob (2): Dan, Eve</li>" in html
    assert html.index("No lynch") < html.index("Night 1 begins.")


def test_a_majority_lynch_mid_day_is_one_post_under_the_gallows(
    client, cast_game, cast_users, moderator
):
    last = _last_number(cast_game)
    _votes(cast_game, cast_users, [("ann", "dan"), ("bob", "dan"), ("cat", "dan"), ("eve", "dan")])
    assert _system_posts(cast_game, last) == []  # a vote alone makes no post
    services.vote_cast(game=cast_game, user=cast_users["fay"], target="dan")  # W-4: 5 of 8
    made = _system_posts(cast_game, last)
    assert len(made) == 1
    lines = said.text(made[0]).splitlines()
    assert lines[:3] == [
        "Final vote count of Day 1:",
        "- Dan (5): Ann, Bob, Cat, Eve, Fay",
        "- Not voting (3): Dan, Gus, Hal",
    ]
    assert "The town lynches Dan." in lines and "Dan has died." in lines
    assert lines.index("The town lynches Dan.") < lines.index("Dan has died.")
    assert lines[-1] == "Night 1 begins." and "No lynch" not in said.text(made[0])
    html = _post_html(client, cast_game, made[0].number)
    assert 'post__icon--gallows" aria-hidden="true"></span> Lynch' in html


def test_the_nights_end_is_one_post_with_the_day_that_begins_last(client, court_game):
    made = [p for p in _system_posts(court_game) if p.phase == "night 1"]
    assert len(made) == 1  # the survival and the day: one post, not two
    assert said.text(made[0]).splitlines() == [
        "Jon survived an attempt on their life.",
        "Day 2 begins.",
    ]
    html = _post_html(client, court_game, made[0].number)
    assert 'post__icon--sun" aria-hidden="true"></span> Daybreak' in html
    assert "moon" not in html  # no moon at daybreak


def test_a_standalone_event_is_its_own_post(client, cast_game, cast_users, moderator):
    first = _system_posts(cast_game)
    assert len(first) == 1 and first[0].event.kind == "phase"
    # The start's post keeps its words, with the deal's seal (docs/fair-deal.md).
    assert said.text(first[0]).startswith("Day 1 begins.\nThe deal is sealed.")
    assert "Day 1 begins." in _post_html(client, cast_game, first[0].number)
    # A removal by day: the announcement and the death, one post, no count (the day goes on).
    last = _last_number(cast_game)
    services.player_remove(game=cast_game, seat_name="hal", by=moderator)
    made = _system_posts(cast_game, last)
    assert len(made) == 1
    assert said.text(made[0]).splitlines() == [
        "Hal has been removed from the game by the moderator.",
        "Hal has died.",
    ]
    assert 'post__icon--grave"' in _post_html(client, cast_game, made[0].number)


def test_posts_made_one_per_event_before_still_read_as_they_did(client, cast_game, cast_users):
    _votes(cast_game, cast_users, [(v, "dan") for v in ("ann", "bob", "cat", "eve", "fay")])
    lynch = GameEvent.objects.get(game=cast_game, kind="lynch")
    death = GameEvent.objects.get(game=cast_game, kind="death")
    last = _last_number(cast_game)
    Post.objects.bulk_create(  # as the thread stored an advance before summaries
        Post(game=cast_game, number=last + i, kind="system", event=event, phase="day 1")
        for i, event in enumerate((lynch, death), start=1)
    )
    assert "The town lynches Dan." in _post_html(client, cast_game, last + 1)
    assert 'post__icon--gallows"' in _post_html(client, cast_game, last + 1)
    assert "Dan has died." in _post_html(client, cast_game, last + 2)
    assert 'post__icon--grave"' in _post_html(client, cast_game, last + 2)


def test_the_final_count_from_the_public_events_is_the_engines(cast_game, cast_users, moderator):
    """W-4a: a player removed by day loses their vote and every vote for them; W-5a: the
    order is the engine's. The count read back from public events is the engine's own."""
    _votes(cast_game, cast_users, [("ann", "hal"), ("bob", "hal"), ("cat", "dan"),
                                   ("dan", "cat"), ("hal", "eve"), ("eve", "dan"),
                                   ("cat", "eve"), ("cat", "dan")])  # fmt: skip
    services.player_remove(game=cast_game, seat_name="hal", by=moderator)
    cast_game.refresh_from_db()
    names = game_display_names(cast_game)
    engine = vote_count(engine_state(cast_game))
    ours = day_final_count(cast_game, "day 1", names)
    assert ours == engine
    assert [t for t, _v, _l in ours.rows] == ["dan", "cat"]
    assert "hal" not in ours.not_voting and ours.living == 7


# --- the vote history: times and post links ----------------------------------------------------
@pytest.fixture
def timed_day(traveller, moderator, cast_users):
    """Day 1 with posts and votes an hour apart: post, vote, post, post, vote, withdrawal."""
    from tests.games.conftest import make_game

    game = make_game(moderator, cast_users)
    steps = [
        lambda: services.post_create(game=game, user=cast_users["ann"], body="Hello."),
        lambda: services.vote_cast(game=game, user=cast_users["dan"], target="bob"),
        lambda: services.post_create(game=game, user=cast_users["bob"], body="Why me?"),
        lambda: services.post_create(game=game, user=cast_users["cat"], body="Why not?"),
        lambda: services.vote_cast(game=game, user=cast_users["eve"], target="bob"),
        lambda: services.vote_withdraw(game=game, user=cast_users["dan"]),
    ]
    for hour, step in enumerate(steps, start=1):
        traveller.move_to(T0 + timedelta(hours=hour))
        step()
    return game


def _history_rows(html):
    listed = re.search(r'<ol class="vote-history">(.*?)</ol>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", listed.group(1), re.S)


def test_each_vote_has_its_time_in_the_readers_zone_and_the_post_it_followed(
    client, timed_day, cast_users
):
    reader = UserFactory(player_name="Tokyo", time_zone="Asia/Tokyo")
    client.force_login(reader)
    for url in (
        reverse("game_detail", args=[timed_day.pk]),
        reverse("game_votes_day", args=[timed_day.pk, 1]),
    ):
        rows = _history_rows(client.get(url).content.decode())
        assert len(rows) == 3
        # Post #1 is "Day 1 begins."; Ann's is #2, Bob's #3, Cat's #4.
        expected = [
            ("Dan votes to lynch Bob.", "2026-03-03T05:00:00+09:00", 2),  # T0 + 2 h, in Tokyo
            ("Eve votes to lynch Bob.", "2026-03-03T08:00:00+09:00", 4),
            ("Dan withdraws their vote.", "2026-03-03T09:00:00+09:00", 4),
        ]
        for row, (text, at, number) in zip(rows, expected, strict=True):
            assert text in row
            # The instant for machines; the day, the time and the zone in words for people.
            assert re.search(
                rf'<time datetime="{re.escape(at)}">Tue 3 Mar, \d\d:\d\d</time> JST', row
            )
            link = reverse("game_detail", args=[timed_day.pk]) + f"?page=1#p{number}"
            assert f'<a href="{link}">after #{number}</a>' in row


def test_the_vote_count_as_of_each_post(client, timed_day, cast_users, moderator):
    def count_at(number):
        response = client.get(reverse("game_votes_at_post", args=[timed_day.pk, number]))
        assert response.status_code == 200
        html = response.content.decode()
        listed = re.findall(r'<span class="vote-count__who">(.*?)</span>', html, re.S)
        return [" ".join(re.sub(r"<[^>]+>", "", x).split()) for x in listed], html

    assert count_at(2)[0] == []  # Ann's post came before any vote
    assert count_at(3)[0] == ["Bob (1): Dan"]  # Bob's: after Dan's vote
    assert count_at(4)[0] == ["Bob (1): Dan"]
    services.post_create(game=timed_day, user=cast_users["fay"], body="After it all.")
    counted, html = count_at(5)
    assert counted == ["Bob (1): Eve"]  # Eve's vote in, Dan's withdrawn
    assert "Not voting (7)" in html
    # Each post links to its count, from one reverse (selectors.threads).
    page = client.get(reverse("game_detail", args=[timed_day.pk])).content.decode()
    for number in range(1, 6):
        assert f'href="/games/{timed_day.pk}/votes/after-{number}/"' in page
    # By night the count is the day's final one; a post that does not exist is a 404.
    services.phase_advance(game=timed_day, by=moderator)
    night_post = services.announcement_post(game=timed_day, by=moderator, body="Sleep.").number
    counted, html = count_at(night_post)
    assert counted == ["Bob (1): Eve"] and "the final count of Day 1" in html
    missing = reverse("game_votes_at_post", args=[timed_day.pk, night_post + 1])
    assert client.get(missing).status_code == 404


def test_the_count_as_of_a_post_shows_no_private_vote(client, timed_day, cast_users):
    """Only public events are read: a vote of a vote's kind addressed to one seat (none is
    today) never counts."""
    last = GameEvent.objects.filter(game=timed_day).order_by("-index").first().index
    private = GameEvent.objects.create(
        game=timed_day, index=last + 1, kind="vote", phase="day 1",
        audience=GameEvent.Audience.SEATS, data={"voter": "hal", "target": "cat"},
    )  # fmt: skip
    private.recipients.add(timed_day.seats.get(name="hal"))
    services.post_create(game=timed_day, user=cast_users["fay"], body="Later.")
    html = client.get(reverse("game_votes_at_post", args=[timed_day.pk, 5])).content.decode()
    assert "Cat</strong>" not in html and "Hal votes" not in html
