"""A known fact of the random-lynch model, checked on the lab's talking bots: a village
with one Seer who shares her results truthfully, heard by villagers who act on them, does
far better than random lynching (Braverman, Etesami and Mossel: a detective's private
knowledge, made public, moves the game toward the Village; the Werewolves' answer is to
kill her once she speaks, and to fake her claim)."""

import pytest

from games.lab.simulation.bots import Bot
from games.lab.simulation.estimate import simulate
from tests.lab.test_random_lynch import plain, village_by_day

GAMES = 1000
MARGIN = 0.04  # the least gain over random lynch the interval's low end must show


@pytest.mark.slow  # six cases, 12,000 games: about 40 s
@pytest.mark.parametrize("skill", ["typical", "sharp"])
@pytest.mark.parametrize("seats,wolves", [(10, 2), (16, 3), (20, 4)], ids=str)
def test_a_truthful_seer_lifts_the_village(seats, wolves, skill, monkeypatch):
    exact = village_by_day(seats - wolves, wolves)  # the Seer counted as a villager
    setup = plain(seats, wolves, ["seer"])
    seer = village(simulate(setup, games=GAMES, seed=32, skill=skill))
    if skill == "typical":  # well above random lynch
        assert seer.low > exact + MARGIN, (exact, seer)
    # Sharp Werewolves counter-claim her, push her wagon and kill so that the vote record
    # marks villagers: against them the village stays near random lynch, and only her
    # talk keeps it there.
    # and it is her talk: the same games with a Seer who keeps her results to herself
    # (she still votes by them; the Werewolves still fake her card)
    monkeypatch.setattr(Bot, "_talk_true", lambda bot: None)
    silent = village(simulate(setup, games=GAMES, seed=32, skill=skill))
    assert seer.low > silent.high + MARGIN, (seer, silent)


def village(estimate):
    return next(t for t in estimate.teams if t.team == "village")


def test_without_the_seer_talking_the_gain_is_gone():
    """The same deal with random bots (nobody talks): no better than the exact answer."""
    seats, wolves = 16, 3
    exact = village_by_day(seats - wolves, wolves)
    estimate = simulate(plain(seats, wolves, ["seer"]), games=GAMES, seed=32, skill="random")
    assert village(estimate).low <= exact <= village(estimate).high
