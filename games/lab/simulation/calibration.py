"""The lab checked against games it did not estimate: seeded test games of a setup, each
played by bots of a skill drawn for that game (careless, typical or sharp), whose Village
share is set beside the estimate for typical play and its careless-to-sharp band.

The test games are dealt from a seed of their own (`OBSERVED_SEED_OFFSET` from the
estimate's), so no test game is one of the estimate's. `manage.py lab_calibrate` prints
the table docs/lab.md holds.
"""

import math
import random
from dataclasses import dataclass

from .estimate import Z95, Band, Estimate, Tally, TeamRate, estimate_of, share_of, simulate
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
    # What the lab predicts for the test games: each is played at a skill drawn evenly
    # from the three, so the Village's expected share is the mean of the three estimates;
    # and that mean's standard error (the three estimates' sampling).
    expected: float = 0.0
    expected_se: float = 0.0

    @property
    def inside(self) -> bool:
        """Whether the test games agree with the prediction: the difference between their
        share and the expected one is within 1.96 standard errors of both samplings (a
        two-sided test at 5%: about one setup in twenty says "no" by chance alone)."""
        share, n = self.observed.share, self.games
        se = math.sqrt(share * (1 - share) / n + self.expected_se**2) if n else 1.0
        return abs(share - self.expected) <= Z95 * se


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
    shares = [share_of(run, VILLAGE) for run in runs.values()]
    expected = sum(shares) / len(shares)
    variance = sum(p * (1 - p) / games for p in shares) / len(shares) ** 2
    return Calibration(
        setup, village(runs["typical"]), band, village(seen), seen.games, expected,
        math.sqrt(variance),
    )  # fmt: skip
