"""Issue 13: the engine state as the pages and the services get it.

The cached state keeps no event history (the events are GameEvent rows): a loaded state
says how many events there were, takes new ones, and refuses to hand out old ones, so no
reader takes the history for empty. Inside a request a state is loaded once; a write
starts from a copy of its own, and a write that rolls back is never read back."""

import threading

import pytest
from django.db import connections, transaction

from games import services
from games.benchmarks.inputs import one_request
from games.engine import parse_input
from games.mapping import (
    EventTail,
    HistoryInRows,
    engine_state,
    engine_state_to_change,
    record_result,
)
from games.models import Game, GameEvent


@pytest.mark.django_db
def test_a_loaded_state_counts_its_events_and_keeps_none_of_the_old(cast_game, cast_users):
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    cast_game.refresh_from_db()
    stored = GameEvent.objects.filter(game=cast_game).count()
    state = engine_state(cast_game)
    assert isinstance(state.events, EventTail) and len(state.events) == stored
    with pytest.raises(HistoryInRows):
        list(state.events)
    with pytest.raises(HistoryInRows):
        state.events[0]
    with pytest.raises(HistoryInRows):
        state.events[stored - 1 :]
    assert state.events[stored:] == []
    # The result needs every event: it replays rather than read the cached state's.
    assert record_result(cast_game)["info"], "the Priest's Day 1 result is in it"

    mine = engine_state_to_change(cast_game)
    assert mine is not state
    new = mine.apply(parse_input(mine, {"actor": "cat", "action": "vote", "target": "bob"}))
    assert [e.kind for e in new] == ["vote"]
    assert mine.events[stored:] == new and mine.events[-1] is new[0]
    assert len(state.events) == stored  # the readers' state did not change


@pytest.mark.django_db
def test_one_request_loads_a_state_once_and_sees_its_own_writes(cast_game, cast_users):
    outside = engine_state(cast_game)
    assert engine_state(cast_game) is not outside  # no memo outside a request
    with one_request():
        first = engine_state(cast_game)
        assert engine_state(Game.objects.get(pk=cast_game.pk)) is first
        services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
        after = engine_state(Game.objects.get(pk=cast_game.pk))
        assert after.votes.votes == {"ann": "bob"}
        assert first.votes.votes == {}  # the write changed a copy of its own
        assert engine_state(cast_game) is first  # a stale row names the state it saw
    with one_request():
        assert engine_state(cast_game) is not first  # a new request loads afresh


class Refused(Exception):
    pass


@pytest.mark.django_db(transaction=True)
def test_a_write_that_rolls_back_is_never_read_back(cast_game, cast_users):
    """In one request: Ann's vote is applied, read, and rolled back; meanwhile another
    worker commits Bob's vote as the same input number. The request then reads Bob's."""

    def bob_votes():  # another worker: its own connection, outside this request
        try:
            services.vote_cast(game=cast_game, user=cast_users["bob"], target="cat")
        finally:
            connections.close_all()

    with one_request():
        with pytest.raises(Refused), transaction.atomic():
            services.vote_cast(game=cast_game, user=cast_users["ann"], target="cat")
            seen = engine_state(Game.objects.get(pk=cast_game.pk))
            assert seen.votes.votes == {"ann": "cat"}
            raise Refused
        worker = threading.Thread(target=bob_votes)
        worker.start()
        worker.join()
        game = Game.objects.get(pk=cast_game.pk)
        assert game.inputs_count == 1
        assert engine_state(game).votes.votes == {"bob": "cat"}


@pytest.mark.django_db(transaction=True)
def test_an_input_drops_the_state_before_it_from_the_cache(cast_game, cast_users):
    """Redis runs noeviction: the state before an input goes once the input commits, not
    a day later (the cache keeps one state per game, not one per input)."""
    from django.core.cache import cache

    from games.mapping import _key

    before = cast_game.inputs_count
    engine_state(cast_game)  # cached under the current count
    assert cache.get(_key(cast_game)) is not None
    services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    cast_game.refresh_from_db()
    assert cast_game.inputs_count == before + 1
    assert cache.get(_key(cast_game, before)) is None
    assert cache.get(_key(cast_game)) is not None
