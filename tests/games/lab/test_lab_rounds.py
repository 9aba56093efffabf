"""A job's rounds (games/lab/services/rounds.py): what each round plays, and that the
chunks add up to one long run's games however many run at once and wherever they stop."""

import random

import pytest

from games.lab import jobs
from games.lab.services import rounds
from games.lab.simulation.chunks import play_chunk
from games.lab.simulation.estimate import play_range
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import find_suggested

SETUP = find_suggested("werewolf-8")
PLAN = jobs.Plan(first=40, games=100, size_games=10, sizes=(12,), band_games=10)
FAR = 10**12  # a time not reached


def _play(spec, stop=None):
    at = SETUP if not spec["seats"] else scaled(SETUP, spec["seats"])
    return play_chunk(at, 17, spec["start"], spec["stop"] if stop is None else stop, spec["skill"])


def test_the_first_round_splits_the_first_games_under_the_deadline():
    state = rounds.initial(PLAN, started=0.0)
    specs = rounds.next_round(state, 0.0, ahead=8, first_due=1.75, until=FAR)
    assert [(s["start"], s["stop"]) for s in specs] == [(i, i + 5) for i in range(0, 40, 5)]
    assert {s["deadline"] for s in specs} == {1.75}
    assert [s["least"] for s in specs] == [1] + [0] * 7  # a first estimate is never empty
    # What comes after, in order: the band, the other size, the refining.
    assert state["pending"] == [
        ["careless", 0, 0, 10],
        ["sharp", 0, 0, 10],
        ["typical", 12, 0, 10],
        ["typical", 0, 40, 100],
    ]


@pytest.mark.parametrize("ahead", [1, 3, 8])
def test_chunks_cut_short_anywhere_add_up_to_the_games_of_one_run(ahead):
    """Each chunk stops at a random game (as a deadline would stop it): the games it left
    come back in a later round, and the job's tallies are those of one run."""
    cut = random.Random(ahead)
    state = rounds.initial(PLAN, started=0.0)
    while specs := rounds.next_round(state, 0.0, ahead=ahead, first_due=FAR, until=FAR):
        stops = [cut.randint(s["start"] + s.get("least", 0), s["stop"]) for s in specs]
        rounds.absorb(state, [_play(s, stop) for s, stop in zip(specs, stops, strict=True)])
    assert rounds.tally(state) == play_range(SETUP, 17, 0, 100)
    assert rounds.played(state) == PLAN.asked
    assert all(rounds.complete(state, s) for s in ("careless", "sharp"))
    assert rounds.complete(state, "typical", 12)


def test_a_round_is_never_more_than_ahead_chunks_and_they_take_about_the_seconds_asked():
    state = rounds.initial(PLAN, started=0.0)
    rounds.next_round(state, 0.0, ahead=2, first_due=FAR, until=FAR)
    rounds.absorb(
        state,
        [
            {"start": 0, "reached": 20, "wins": {"village": 20}, "days": {"3": 20}, "seconds": 2},
            {"start": 20, "reached": 40, "wins": {"village": 20}, "days": {"3": 20}, "seconds": 2},
        ],
    )
    state["rates"]["careless/0"] = [20, 10.0]  # 2 games a second
    specs = rounds.next_round(state, 0.0, ahead=2, first_due=FAR, until=FAR, seconds=2.0)
    assert [(s["skill"], s["start"], s["stop"]) for s in specs] == [
        ("careless", 0, 4),
        ("careless", 4, 8),
    ]


def test_out_of_time_a_job_leaves_only_its_refining():
    state = rounds.initial(PLAN, started=0.0)
    specs = rounds.next_round(state, 0.0, ahead=2, first_due=0.0, until=5.0)
    # Both chunks stopped at the deadline after the first game.
    rounds.absorb(state, [_play(s, s["start"] + s["least"]) for s in specs])
    while specs := rounds.next_round(state, 10.0, ahead=4, first_due=0.0, until=5.0):
        refining = [s for s in specs if s["skill"] == "typical" and not s["seats"]]
        assert all(s["stop"] <= 40 for s in refining)
        rounds.absorb(state, [_play(s) for s in specs])
    assert rounds.tally(state).games == 40  # the first estimate's games, all of them
    assert rounds.played(state) == 40 + 2 * 10 + 10
