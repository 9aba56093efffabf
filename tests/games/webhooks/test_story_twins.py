"""Non-interference for the webhooks' stories (issue 30): the twin games of
tests/games/test_noninterference.py, which differ only in one hidden input (a room post, a
hide in a room, a secret day power, a night action, one withdrawn, an afterlife act, a
pack vote, the Seer's look), tell byte-identical stories, in English and in German, with
the clock's sweep looking for a near deadline at each checkpoint. A chat channel is a
viewer that may see nothing hidden: any difference would be a side channel.

The twins are played as noninterference.py plays them: in a savepoint rolled back, the
id sequences set back, every cache emptied, at the same frozen moment, the deal's salt the
same.
"""

from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.db import transaction

from games import services
from games.mapping import engine_state
from games.services import sweep
from tests.games.conftest import make_game
from tests.games.noninterference import SALT, T0, clear_caches, reset_sequences
from tests.games.test_noninterference import (
    CAST,
    HIDDEN,
    WOLF_HIDDEN,
    _refresh,
    _users,
    _witchhunt,
    _wolf_story,
)
from tests.games.webhooks.stories import lynch, near_sweep, told

pytestmark = pytest.mark.django_db


def stories_of_twins(story) -> list[list]:
    """What `story(hidden)` tells, played without the hidden input and with it."""
    told_twice = []
    for hidden in (False, True):
        reset_sequences()
        clear_caches()
        with transaction.atomic(), mock.patch(SALT, lambda: "5a" * 32):
            with time_machine.travel(T0, tick=False), told(("en", "de")) as heard:
                for _checkpoint, game, _users in story(hidden):
                    near_sweep(game)
                told_twice.append(list(heard))
            transaction.set_rollback(True)
        reset_sequences()
    clear_caches()
    return told_twice


def _first_difference(first, second) -> str:
    for a, b in zip(first, second, strict=False):
        if a != b:
            return f"{a!r}\n!=\n{b!r}"
    return f"{len(first)} stories != {len(second)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HIDDEN))
def test_a_hidden_witchhunt_input_changes_no_story(name):
    first, second = stories_of_twins(_witchhunt(name))
    assert {h.event for h in first} >= {"game_started", "vote_count", "phase_ended",
                                        "phase_began", "deadline_near"}  # fmt: skip
    assert first == second, _first_difference(first, second)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(WOLF_HIDDEN))
def test_a_hidden_werewolf_input_changes_no_story(name):
    first, second = stories_of_twins(_wolf_story(WOLF_HIDDEN[name]))
    assert {h.event for h in first} >= {"phase_ended", "phase_began", "deadline_near"}
    assert first == second, _first_difference(first, second)


def test_the_twins_do_tell_a_public_difference_apart():
    """The comparison can fail: a day vote in one twin only is told."""
    witchhunt = _witchhunt("a night action")

    def story(hidden):
        for checkpoint, game, users in witchhunt(False):
            if hidden and checkpoint == "day 1":
                services.vote_cast(game=game, user=users["dan"], target="eve")
            yield checkpoint, game, users

    first, second = stories_of_twins(story)
    assert first != second
    told_apart = next(b for a, b in zip(first, second, strict=False) if a != b)
    assert told_apart.event == "vote_count" and "Eve (1): Dan" in told_apart.en.text


def _early_night(hidden):
    """W-2a: a game that ends phases early. Day 1 the town lynches Bob; Night 1 Hal's
    Coven kills Ann and (in one twin) Ivy looks at Jon; after midnight every living player
    says they are done, the deadline moves up to the grace period, and the clock ends the
    night there. The early end is told the same way whatever was done in the dark."""
    u = _users(CAST)
    game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False}, early_end=True,
                     early_end_grace=timedelta(minutes=20))  # fmt: skip
    lynch(_refresh(game), u, "bob")
    services.action_submit(game=_refresh(game), user=u["hal"], action="coven", target="ann")
    if hidden:
        services.action_submit(game=_refresh(game), user=u["ivy"], action="ability",
                               targets=["jon"])  # fmt: skip
    with time_machine.travel(_refresh(game).midnight_at, tick=False):
        sweep.clock_sweep(share=False)  # midnight passes (W-3): now one may say "done"
        for seat in engine_state(_refresh(game)).seats:
            if seat.living:
                services.phase_lock_in(game=_refresh(game), user=u[seat.name])
    yield "night 1, everyone done", _refresh(game), u
    with time_machine.travel(_refresh(game).deadline_at, tick=False):
        sweep.clock_sweep(share=False)  # the grace is over: the clock ends the night
    assert _refresh(game).phase == "day 2"
    yield "day 2", game, u


@pytest.mark.slow
def test_a_night_that_ends_early_is_told_the_same_whatever_was_done_in_it():
    first, second = stories_of_twins(_early_night)
    assert first == second, _first_difference(first, second)
    near = [h.en.text for h in first if h.event == "deadline_near"]
    assert "Night 1 ends Tue 3 Mar, 06:20 UTC." in near  # midnight and the grace after it
    ended = next(h.en for h in first if h.event == "phase_ended" and "Night 1" in h.en.title)
    lines = ended.text.splitlines()
    assert lines[0] == "Ann has died." and lines[-1] == "Day 2 begins.", lines
