"""What keeps the webhooks' stories few (issue 30): a day's vote count is one story that
each move supersedes (`replaces`), every other story is told at most once (`once`), a
deadline is near once per deadline (a moved one again), and an input nobody may see tells
nothing at all."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import queue, services
from games.webhooks import story
from tests.games.conftest import make_game
from tests.games.webhooks.stories import lynch, near_sweep, told

pytestmark = pytest.mark.django_db


def _fresh(game):
    game.refresh_from_db()
    return game


def test_a_days_vote_count_is_one_story_each_move_supersedes(moderator, cast_users, traveller):
    game = make_game(moderator, cast_users)
    with told() as heard:
        services.vote_cast(game=game, user=cast_users["ann"], target="bob")
        services.vote_withdraw(game=_fresh(game), user=cast_users["ann"])
        lynch(_fresh(game), cast_users, "bob")
    counts = [h.en for h in heard if h.event == "vote_count"]
    assert len(counts) == 2 + 5  # a vote, its withdrawal, the five votes of the lynch
    assert {c.replaces for c in counts} == {f"votes:{game.pk}:day 1"}
    assert all(c.once == "" for c in counts)
    assert counts[-1].title == "The named cast · Final vote count of Day 1"
    assert [c.title for c in counts[:-1]] == ["The named cast · Vote count of Day 1"] * 6
    # Night 1 and Day 2: the next day's count is a story of its own.
    services.phase_advance(game=_fresh(game), by=moderator)
    with told() as heard:
        services.vote_cast(game=_fresh(game), user=cast_users["ann"], target="hal")
        services.phase_advance(game=_fresh(game), by=moderator)  # no lynch: the count is final
    counts = [h.en for h in heard if h.event == "vote_count"]
    assert [c.replaces for c in counts] == [f"votes:{game.pk}:day 2"] * 2
    assert counts[-1].title == "The named cast · Final vote count of Day 2"
    assert "Hal (1): Ann" in counts[-1].text.splitlines()


def test_every_other_story_is_told_once(moderator, cast_users, traveller):
    with told() as heard:
        game = make_game(moderator, cast_users)
        lynch(game, cast_users, "bob")
        services.phase_advance(game=_fresh(game), by=moderator)
    pk = game.pk
    onces = [(h.event, h.en.once) for h in heard if h.event != "vote_count"]
    assert onces == [
        ("signups_open", f"signups:{pk}"),
        ("game_started", f"started:{pk}"),
        ("phase_ended", f"ended:{pk}:day 1"),
        ("phase_began", f"began:{pk}:night 1"),
        ("phase_ended", f"ended:{pk}:night 1"),
        ("phase_began", f"began:{pk}:day 2"),
    ]
    assert all(h.en.replaces == "" for h in heard if h.event != "vote_count")


def test_a_near_deadline_is_told_once_and_again_once_moved(
    moderator, cast_users, traveller, django_capture_on_commit_callbacks, settings
):
    game = make_game(moderator, cast_users)
    deadline = game.deadline_at
    with told() as heard:
        near_sweep(game, before=timedelta(hours=2))  # not yet near: an hour is
        assert heard == []
        with django_capture_on_commit_callbacks(execute=True):  # committed: the cache knows
            assert near_sweep(game) == {}  # the clock's own work: none
        near_sweep(game, before=timedelta(minutes=10))  # told already
    assert [h.en.once for h in heard] == [f"deadline:{game.pk}:day 1:{deadline.isoformat()}"]
    assert heard[0].en.title == "The named cast · Day 1 ends in 30 min"
    assert heard[0].en.mentions == ()  # who has not voted yet is nobody's business
    # The cache only spares the sweeps: without it the story comes again, with the same
    # `once`, which the deliveries refuse.
    cache.clear()
    with told() as again:
        near_sweep(game, before=timedelta(minutes=5))
    assert [h.en.once for h in again] == [heard[0].en.once]
    # A deadline moved is near again.
    services.clock_extend(game=_fresh(game), by=moderator, delta=timedelta(hours=6))
    with told() as moved:
        near_sweep(game)
    later = deadline + timedelta(hours=6)
    assert [h.en.once for h in moved] == [f"deadline:{game.pk}:day 1:{later.isoformat()}"]
    assert "Day 1 ends Fri 6 Mar, 00:00 UTC." in moved[0].en.text
    # A stopped clock has no deadline coming; a longer setting tells sooner.
    cache.clear()
    services.clock_pause(game=_fresh(game), by=moderator)
    with told() as paused:
        near_sweep(game)
    assert paused == []
    services.clock_resume(game=_fresh(game), by=moderator)
    settings.WEBHOOK_DEADLINE_NEAR = timedelta(hours=3)
    with told() as sooner:
        near_sweep(game, before=timedelta(hours=2, minutes=30))
    assert [h.event for h in sooner] == ["deadline_near"]


def test_an_input_nobody_may_see_tells_nothing(moderator, cast_users, traveller):
    game = make_game(moderator, cast_users)
    lynch(game, cast_users, "bob")
    with told() as heard:
        services.action_submit(game=_fresh(game), user=cast_users["ann"], action="ability",
                               targets=["hal"])  # fmt: skip
        services.room_post(game=_fresh(game), user=cast_users["hal"], room="coven", body="Ann?")
    assert heard == []


def test_a_game_opened_for_sign_ups_is_announced_by_the_core(moderator, cast_users):
    opened = []
    queue.connect(queue.GAME_OPENED, lambda **payload: opened.append(payload))
    try:
        with told() as heard:
            game = make_game(moderator, cast_users, start=False)
    finally:
        queue._receivers[queue.GAME_OPENED] = [
            r for r in queue.receivers(queue.GAME_OPENED) if r.function.__name__ != "<lambda>"
        ]
    assert [p["game"].pk for p in opened] == [game.pk]  # once: the joins announce nothing
    assert [h.event for h in heard] == ["signups_open"]
    story = heard[0].en
    assert story.title == "The named cast is open for sign-ups"
    assert story.text == "A game of Witchhunt 9.0 for 8 players."
    assert story.url == f"http://127.0.0.1:8000/games/{game.pk}/"


# --- what a story costs the write that tells it --------------------------------------------
def _queries(act) -> int:
    with CaptureQueriesContext(connection) as queries:
        act()
    return len(queries)


def test_a_story_costs_a_write_nothing_until_a_destination_builds_it(moderator, cast_users):
    game = make_game(moderator, cast_users)

    def vote(who, target):
        return lambda: services.vote_cast(game=_fresh(game), user=cast_users[who], target=target)

    plain = _queries(vote("ann", "bob"))
    ignored = []

    def ignore(game, event, build):  # a destination that does not follow this game
        ignored.append(event)

    story.listen(ignore)
    try:
        with told(()) as heard:  # heard, never built
            unbuilt = _queries(vote("cat", "bob"))
    finally:
        story._sinks.remove(ignore)
    assert [h.event for h in heard] == ignored == ["vote_count"]
    assert unbuilt == plain
    with told() as heard:
        built = _queries(vote("dan", "bob"))
    assert built == plain + 1  # the seats' names: the count is the engine's, in memory


def test_a_story_that_fails_to_be_told_stops_neither_the_clock_nor_the_other_games(
    moderator, cast_users, traveller, caplog, django_capture_on_commit_callbacks
):
    first = make_game(moderator, cast_users, title="First")
    second = make_game(moderator, cast_users, title="Second")
    failing = [first.pk]

    def refuse(game, event, build):  # a destination whose write fails, once
        if game.pk in failing:
            failing.remove(game.pk)
            raise RuntimeError("the delivery could not be written")

    story.listen(refuse)
    try:
        with told() as heard:
            with django_capture_on_commit_callbacks(execute=True):
                assert near_sweep(first) == {}
            with django_capture_on_commit_callbacks(execute=True):
                near_sweep(first, before=timedelta(minutes=20))  # the next sweep: told now
    finally:
        story._sinks.remove(refuse)
    told_of = [(h.game, h.event) for h in heard]
    assert told_of == [(second.pk, "deadline_near"), (first.pk, "deadline_near")]
    assert f"game {first.pk}: its near deadline could not be told" in caplog.text
