"""The rules engine's speed: the bench record replayed, random games played to a win."""

import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from games.engine import records
from games.engine.playout import random_game, random_setup

BENCH_RECORD = "witchhunt-48-players-1115-steps.json"
# The project's copy of the team's shared bench record, installed with the package: the
# benchmark needs no ../shared (tests/games/test_bench_record.py checks the copy is the same).
BENCH_RECORD_PATH = Path(__file__).resolve().parent / "data" / BENCH_RECORD


def replay_ms(record, runs):
    """Median in-process replay time of a record, result included, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ruleset, game, refused, _ = records.replay(record)
        records.result(ruleset, game, refused)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(record["steps"])


def games_per_second(ruleset, players, seconds, seed=2026):
    """Random legal games of `players` played to the end, per second on this one core."""
    rng = random.Random(seed)
    done = steps = ended = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game, played = random_game(rng, random_setup(rng, ruleset, players))
        done += 1
        ended += game.over
        steps += len(played)
    elapsed = time.perf_counter() - start
    return done / elapsed, steps / done, ended / done


# Instructions a unit (valgrind's cachegrind): what load cannot move. The targets.
INSTRUCTION_TARGETS = {"replay": 40e6, "witchhunt": 10e6, "werewolf": None}
INSTRUCTION_UNITS = {"replay": 10, "witchhunt": 20, "werewolf": 20}
PROJECT = Path(__file__).resolve().parents[2]


def instructions(workload, units):
    """Instructions per unit of `workload` (engine_count.py), counted by cachegrind: a
    run of `units` units minus a run of none, each after the same warm-up and imports.
    The hash seed is fixed, so the two runs lay out their dicts and sets alike."""
    counts = []
    for n in (0, units):
        run = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                "--cachegrind-out-file=/dev/null",
                sys.executable,
                "-m",
                "games.benchmarks.engine_count",
                workload,
                str(n),
            ],
            cwd=PROJECT,
            env={**os.environ, "PYTHONPATH": str(PROJECT), "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
        found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[1] - counts[0]) / units


def write_instructions(write):
    if shutil.which("valgrind") is None:
        write("engine.instructions skipped: valgrind is not installed (apt install valgrind)")
        return
    for workload, units in INSTRUCTION_UNITS.items():
        per = instructions(workload, units)
        what = BENCH_RECORD if workload == "replay" else f"playout {workload}, 20 players"
        target = INSTRUCTION_TARGETS[workload]
        goal = f"; target <= {target / 1e6:.0f} M" if target else ""
        write(
            f"engine.instructions {what}: {per / 1e6:.2f} M instructions a "
            f"{'replay' if workload == 'replay' else 'game'} (cachegrind, {units} runs "
            f"minus none{goal})"
        )


def run(write, options):
    with open(BENCH_RECORD_PATH, encoding="utf-8") as f:
        record = json.load(f)
    records.replay(record)  # warm up imports and caches
    ms, n = replay_ms(record, options.runs)
    write(
        f"engine.replay  {BENCH_RECORD}: median {ms:.2f} ms over {options.runs} runs "
        f"({n} steps, {n / ms * 1000:,.0f} steps/s; target <= 4 ms)"
    )
    for ruleset, players in (("witchhunt", 20), ("werewolf", 20)):
        rate, avg, ended = games_per_second(ruleset, players, options.seconds)
        write(
            f"engine.playout {ruleset}, {players} players: {rate:,.0f} games/s "
            f"on one core ({avg:.0f} accepted steps a game, {ended:.0%} "
            "played to a win; target >= 1,000 games/s)"
        )
    write_instructions(write)
