"""The rules engine's speed: the bench record replayed, random games played to a win."""

import json
import random
import statistics
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
