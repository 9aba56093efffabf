"""`python manage.py bench` (`make bench`): the engine's speed, printed as numbers.

Recorded in docs/benchmarks.md. Later issues add the clock's and the pages' benchmarks.
"""

import json
import os
import random
import statistics
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from games.engine import records
from games.engine.playout import random_game, random_setup

BENCH_RECORD = "witchhunt-48-players-1115-steps.json"


def shared_dir():
    return Path(os.environ.get("WITCHHUNT_SHARED", Path(settings.BASE_DIR).parent / "shared"))


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


class Command(BaseCommand):
    help = "Run the benchmarks and print their numbers."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=21)
        parser.add_argument("--seconds", type=float, default=5.0)

    def handle(self, *args, runs, seconds, **options):
        path = shared_dir() / "bench" / BENCH_RECORD
        with open(path) as f:
            record = json.load(f)
        records.replay(record)  # warm up imports and caches
        ms, n = replay_ms(record, runs)
        self.stdout.write(
            f"engine.replay  {BENCH_RECORD}: median {ms:.2f} ms over {runs} runs "
            f"({n} steps, {n / ms * 1000:,.0f} steps/s; target <= 20 ms)"
        )
        for ruleset, players in (("witchhunt", 20), ("werewolf", 20)):
            rate, avg, ended = games_per_second(ruleset, players, seconds)
            self.stdout.write(
                f"engine.playout {ruleset}, {players} players: {rate:,.0f} games/s "
                f"on one core ({avg:.0f} accepted steps a game, {ended:.0%} "
                "played to a win; target >= 300 games/s)"
            )
