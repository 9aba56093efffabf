"""The lab against the outside world: the random-lynch model of Braverman, Etesami and
Mossel ("Mafia: a theoretical study of players and coalitions in a partial information
environment", 2008), whose answer for plain Villagers against Werewolves is exact.

Under the Werewolf rulings the game starts on Day 1 (WW-1); a day's majority lynches at
once (WW-2); the pack kills one non-Werewolf a night (WW-4); after every death the
Village wins when no Werewolf lives, the Werewolves when they are at least as many as
the rest (WW-12). With the `random` skill each day lynches a uniformly random living
player and each night kills a uniformly random villager, so the Village's chance is a
small recursion over (villagers, werewolves) at the start of a day."""

from functools import cache

import pytest

from games.lab.simulation.estimate import simulate
from games.lab.simulation.setups import Setup


@cache
def village_by_day(villagers: int, wolves: int) -> float:
    """The Village's chance at the start of a day with these living (exact)."""
    if wolves == 0:
        return 1.0
    if wolves >= villagers:
        return 0.0
    living = villagers + wolves
    return wolves / living * _night(villagers, wolves - 1) + villagers / living * _night(
        villagers - 1, wolves
    )


def _night(villagers, wolves):
    if wolves == 0:
        return 1.0
    if wolves >= villagers:
        return 0.0
    return village_by_day(villagers - 1, wolves)  # the pack's victim, then the next day


def plain(seats, wolves, roles=()):
    deal = {"mode": "pool", "roles": list(roles), "werewolves": wolves, "specials": len(roles)}
    return Setup("werewolf", seats, deal, {"reveal_on_death": False})


def test_the_recursion_agrees_with_hand_worked_cases():
    assert village_by_day(2, 1) == pytest.approx(1 / 3)  # lynch the wolf or lose at once
    # 3 villagers, 1 wolf: 1/4 now; else 2v+1w by night -> 1v+1w: lost. So 1/4.
    assert village_by_day(3, 1) == pytest.approx(1 / 4)
    # 4v+1w: 1/5, else night -> 2v+1w by day: 1/3. So 1/5 + 4/5 * 1/3.
    assert village_by_day(4, 1) == pytest.approx(1 / 5 + 4 / 5 / 3)


CASES = [(7, 1), (7, 2), (10, 2), (13, 3)]
GAMES = 2000


@pytest.mark.parametrize("seats,wolves", CASES, ids=lambda c: str(c))
def test_random_bots_give_the_exact_random_lynch_answer(seats, wolves):
    exact = village_by_day(seats - wolves, wolves)
    estimate = simulate(plain(seats, wolves), games=GAMES, seed=32, skill="random")
    village = next(t for t in estimate.teams if t.team == "village")
    assert village.low <= exact <= village.high, (exact, village)
    assert sum(t.wins for t in estimate.teams) == GAMES  # no other result, none unfinished
