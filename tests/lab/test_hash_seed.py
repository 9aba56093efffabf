"""The same estimate on every worker: a game's course may not depend on the process's hash
seed (PYTHONHASHSEED), which differs between processes, so iterating a set of names
where the order matters (a float sum, a choice among ties) would make a chunk played on
one lab worker differ from the same chunk played on another."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLAY = """
from games.lab.simulation.play import play_one
from games.lab.simulation.setups import suggested
for ruleset in ("witchhunt", "werewolf"):
    for seats in (8, 16):
        for skill in ("careless", "typical", "sharp"):
            setup = suggested(ruleset, seats)
            print(ruleset, seats, skill, [play_one(setup, 1, i, skill) for i in range(300)])
"""


def _played(hash_seed):
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, cwd=ROOT, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.slow
def test_the_bots_play_the_same_games_whatever_the_hash_seed():
    first = _played(1)
    assert first.count("\n") == 12
    assert _played(3) == first
    assert _played(5) == first
