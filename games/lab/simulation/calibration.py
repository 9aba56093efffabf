"""The lab checked against games it did not estimate: seeded test games of a setup, each
played by bots of a skill drawn for that game (careless, typical or sharp), whose Village
share is set beside the estimate for typical play and its careless-to-sharp band.

The test games are dealt from a seed of their own (`OBSERVED_SEED_OFFSET` from the
estimate's), so no test game is one of the estimate's. `manage.py lab_calibrate` prints
the table docs/lab.md holds.
"""

import random
from dataclasses import dataclass

from .estimate import Band, Estimate, Tally, TeamRate, estimate_of, share_of, simulate
from .play import play_one
from .setups import Setup
from .skills import SKILLS

OBSERVED_SEED_OFFSET = 1_000_003  # the test games' seed: the estimate's plus this
VILLAGE = "village"


def drawn_skill(seed: int, index: int) -> str:
    """The skill test game `index` is played with: drawn from its own seed alone."""
    return random.Random(f"calibration:{seed}:{index}").choice(SKILLS)


def observed_games(setup: Setup, seed: int, games: int) -> Estimate:
    """`games` test games of `setup`, each by bots of a skill drawn for it, tallied."""
    tally = Tally()
    for i in range(games):
        tally.add(*play_one(setup, seed, i, skill=drawn_skill(seed, i)))
    return estimate_of(setup, tally, seed)


@dataclass(frozen=True)
class Calibration:
    setup: Setup
    typical: TeamRate  # the Village's, for typical play
    band: Band
    observed: TeamRate  # the Village's, over the test games
    games: int  # how many test games

    @property
    def inside(self) -> bool:
        """Whether the test games' interval meets what the lab answered: the typical
        estimate's interval or the band from careless to sharp play."""
        low = min(self.typical.low, self.band.low)
        high = max(self.typical.high, self.band.high)
        return self.observed.low <= high and self.observed.high >= low


def village(estimate: Estimate) -> TeamRate:
    found = next((t for t in estimate.teams if t.team == VILLAGE), None)
    return found or TeamRate(VILLAGE, 0, share_of(estimate, VILLAGE), 0.0, 1.0)


def calibrate(setup: Setup, *, games: int, observed: int, seed: int, workers: int = 1):
    """The estimate of `setup` for typical play and its band (`games` each), and
    `observed` test games beside them."""
    runs = {
        skill: simulate(setup, games=games, seed=seed, workers=workers, skill=skill)
        for skill in SKILLS
    }
    band = Band.of(runs["typical"], runs["careless"], runs["sharp"])
    seen = observed_games(setup, seed + OBSERVED_SEED_OFFSET, observed)
    return Calibration(setup, village(runs["typical"]), band, village(seen), seen.games)
