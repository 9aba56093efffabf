"""The lab's numbers: Wilson intervals, medians, the cached form, reproducible estimates."""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import billiard
import pytest

from games.lab.simulation.estimate import (
    Estimate,
    TeamRate,
    by_size,
    median,
    play_range,
    simulate,
    wilson,
)
from games.lab.simulation.parallel import NICENESS, chunk_tallies
from games.lab.simulation.setups import Setup, suggested


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17, table I, method 3 (Wilson, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(wins, n, low, high):
    got = wilson(wins, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_is_symmetric_and_bounded():
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high)
    assert wilson(10, 10)[1] <= 1.0 and wilson(0, 10)[0] >= 0.0
    assert wilson(0, 0) == (0.0, 1.0)  # no games: nothing known


def test_median_of_a_length_histogram():
    assert median(Counter({3: 1, 5: 1, 9: 1})) == 5
    assert median(Counter({4: 2, 6: 2})) == 5
    assert median(Counter({2: 1, 7: 3})) == 7
    assert median(Counter()) == 0.0


def test_estimate_round_trips_through_json():
    est = Estimate("k", 10, [TeamRate("village", 4, 0.4, 0.17, 0.69)], 5.0, [0, 0, 3, 7], 9)
    again = Estimate.from_dict(json.loads(json.dumps(est.as_dict())))
    assert again == est
    assert isinstance(again.teams[0], TeamRate)


@pytest.mark.parametrize("ruleset", ["witchhunt", "werewolf"])
def test_the_same_seed_gives_the_same_estimate(ruleset):
    setup = suggested(ruleset, 8)
    first = simulate(setup, games=60, seed=7)
    assert simulate(setup, games=60, seed=7).as_dict() == first.as_dict()
    assert simulate(setup, games=60, seed=8).as_dict() != first.as_dict()


@pytest.mark.slow
def test_an_estimate_does_not_depend_on_how_many_processes_play_it():
    setup = suggested("werewolf", 8)
    alone = simulate(setup, games=240, seed=3)
    assert simulate(setup, games=240, seed=3, workers=2, every=50).as_dict() == alone.as_dict()


@pytest.mark.slow
def test_chunks_over_processes_come_in_the_games_order():
    setup = suggested("werewolf", 8)
    chunks = list(chunk_tallies(setup, 5, 10, 130, workers=3, chunk=25))
    assert [c.games for c in chunks] == [25, 25, 25, 25, 20]  # games 10..129
    here = [play_range(setup, 5, start, min(130, start + 25)) for start in range(10, 130, 25)]
    assert [(c.wins, c.days) for c in chunks] == [(h.wins, h.days) for h in here]


@pytest.mark.slow
def test_a_lab_process_that_dies_ends_the_run_with_an_error_and_no_process_left():
    chunks = chunk_tallies(suggested("witchhunt", 8), 1, 0, 100_000, workers=2, chunk=20)
    next(chunks)
    (victim, *_) = billiard.active_children()
    os.kill(victim.pid, signal.SIGKILL)  # as the kernel ends a process out of memory
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stopped before its games were played"):
        for _ in chunks:
            pass
    assert time.monotonic() - start < 30  # not a wait for games nobody plays
    assert billiard.active_children() == []  # the other one was stopped


@pytest.mark.slow
def test_a_game_that_fails_in_another_process_raises_its_own_error_here():
    """A deal the rules refuse says why in the same words over processes as here, so the
    lab's page shows them either way."""
    broken = Setup.from_game_fields(
        "werewolf", 4, {"mode": "explicit", "cards": [{"role": "werewolf"}] * 4}, {}
    )
    with pytest.raises(ValueError) as here:
        play_range(broken, 1, 0, 1)
    with pytest.raises(ValueError) as there:
        list(chunk_tallies(broken, 1, 0, 40, workers=2, chunk=20))
    assert str(there.value) == str(here.value) != ""
    assert "in a lab process" in "".join(there.value.__notes__)


@pytest.mark.slow
def test_the_processes_yield_the_cpu_to_the_site():
    chunks = chunk_tallies(suggested("witchhunt", 8), 1, 0, 100_000, workers=2, chunk=20)
    next(chunks)
    try:
        for process in billiard.active_children():
            with open(f"/proc/{process.pid}/stat") as stat:
                nice = int(stat.read().rsplit(")", 1)[1].split()[16])
            assert nice == min(19, os.nice(0) + NICENESS)
    finally:
        chunks.close()


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_the_processes_stop_when_their_reader_is_killed():
    """A job's worker killed outright (its time limit, the kernel out of memory) leaves no
    process playing the rest of its games for nobody."""
    root = Path(__file__).resolve().parents[2]
    reader = subprocess.Popen(
        [sys.executable, "-m", "tests.lab.reader"], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        pids = [int(p) for p in reader.stdout.readline().split()]
        assert len(pids) == 2 and all(_running(p) for p in pids)
    finally:
        reader.kill()
        reader.wait()
    deadline = time.monotonic() + 20
    while any(_running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(p) for p in pids)


def test_an_estimate_adds_up():
    setup = suggested("witchhunt", 8)
    est = simulate(setup, games=80, seed=1)
    assert est.games == 80 == sum(t.wins for t in est.teams) == sum(est.days)
    assert [t.team for t in est.teams][:2] == ["village", "witches"]
    assert est.setup_key == setup.key() and est.seed == 1
    assert sum(t.share for t in est.teams) == pytest.approx(1.0)
    for t in est.teams:
        assert t.low <= t.share <= t.high
    assert est.days[0] == 0 and min(d for d, n in enumerate(est.days) if n) <= est.median_days


def test_progress_is_reported_every_so_many_games():
    seen = []
    simulate(suggested("werewolf", 8), games=250, seed=1, progress=seen.append, every=100)
    assert seen == [100, 200]


def test_by_size_estimates_each_size():
    rows = by_size(suggested("werewolf", 8), [8, 10], games=20, seed=1)
    assert [n for n, _ in rows] == [8, 10]
    assert rows[0][1].setup_key != rows[1][1].setup_key
    assert all(est.games == 20 for _, est in rows)


@pytest.mark.slow
def test_progress_over_several_processes_counts_up_to_every_game():
    seen = []
    simulate(
        suggested("werewolf", 8), games=300, seed=2, workers=2, every=100, progress=seen.append
    )
    assert seen == sorted(seen) and seen[-1] == 300 and all(n % 100 == 0 for n in seen)


def test_a_setup_the_rules_refuse_is_not_simulated():
    setup = suggested("witchhunt", 8)
    broken = type(setup).from_dict(setup.as_dict() | {"seats": 9})  # types add up to 8
    with pytest.raises(ValueError, match="cannot be played"):
        simulate(broken, games=10, seed=1)
