"""The program `make bench` runs under valgrind to count the engine's instructions
(`engine.instructions`): one warm-up unit, then N units of one workload, in a process of
its own, without Django. A run of N units minus a run of none is what N units cost.

    python -m games.benchmarks.engine_count replay|witchhunt|werewolf N
"""

import json
import random
import sys

from games.engine import records
from games.engine.playout import random_game, random_setup

PLAYERS = 20  # the playouts' seats, as engine.playout plays them
SEED = 2026  # engine.playout's


def replay(record):
    ruleset, game, refused, _ = records.replay(record)
    records.result(ruleset, game, refused)


def main(workload, units):
    if workload == "replay":
        from games.benchmarks.engine import BENCH_RECORD_PATH

        with open(BENCH_RECORD_PATH, encoding="utf-8") as f:
            record = json.load(f)
        replay(record)  # the warm-up: imports, caches
        for _ in range(units):
            replay(record)
        return
    rng = random.Random(SEED + 1)
    random_game(rng, random_setup(rng, workload, PLAYERS))  # the warm-up
    rng = random.Random(SEED)
    for _ in range(units):
        random_game(rng, random_setup(rng, workload, PLAYERS))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
