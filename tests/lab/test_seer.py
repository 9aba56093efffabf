"""A known fact of the random-lynch model, checked on the lab's talking bots: a village
with one Seer who shares her results truthfully, heard by villagers who act on them, does
far better than random lynching (Braverman, Etesami and Mossel: a detective's private
knowledge, made public, moves the game toward the Village; the Werewolves' answer is to
kill her once she speaks, and to fake her claim)."""

import pytest

from games.lab.simulation.estimate import simulate
from tests.lab.test_random_lynch import plain, village_by_day

GAMES = 1000
MARGIN = 0.04  # the least gain over random lynch the interval's low end must show


@pytest.mark.parametrize("skill", ["typical"])
@pytest.mark.parametrize("seats,wolves", [(13, 3), (16, 3)], ids=str)
def test_a_truthful_seer_lifts_the_village_well_above_random_lynch(seats, wolves, skill):
    exact = village_by_day(seats - wolves, wolves)  # the Seer counted as a villager
    estimate = simulate(plain(seats, wolves, ["seer"]), games=GAMES, seed=32, skill=skill)
    village = next(t for t in estimate.teams if t.team == "village")
    assert village.low > exact + MARGIN, (exact, village)


def test_without_the_seer_talking_the_gain_is_gone():
    """The same bots with a silent Seer (random play): no better than the exact answer."""
    seats, wolves = 16, 3
    exact = village_by_day(seats - wolves, wolves)
    estimate = simulate(plain(seats, wolves, ["seer"]), games=GAMES, seed=32, skill="random")
    village = next(t for t in estimate.teams if t.team == "village")
    assert village.low <= exact <= village.high
