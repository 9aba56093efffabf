"""A lab job's record (games/lab/jobs.py): which setups are one estimate, and when an
abandoned job may be started again. Pure: no database, no cache."""

import time

from games.lab import jobs
from games.lab.simulation.setups import Setup, find_suggested


def test_a_pool_picked_in_another_order_is_the_suggested_setup_or_one_sorted_setup():
    werewolf_12 = find_suggested("werewolf-12")
    shuffled = Setup.from_game_fields(
        "werewolf",
        12,
        {**werewolf_12.deal, "roles": werewolf_12.deal["roles"][::-1]},
        werewolf_12.options,
    )
    assert shuffled.key() != werewolf_12.key()
    assert jobs.canonical(shuffled) is werewolf_12

    mine = Setup.from_game_fields(
        "witchhunt",
        9,
        {"mode": "pool", "characters": ["priest", "judge", "oracle"], "types": {}},
        {},
    )
    again = Setup.from_game_fields(
        "witchhunt",
        9,
        {"mode": "pool", "characters": ["oracle", "priest", "judge"], "types": {}},
        {},
    )
    assert jobs.canonical(mine).key() == jobs.canonical(again).key()
    assert jobs.canonical(mine).deal["characters"] == ["judge", "oracle", "priest"]


def test_a_list_of_cards_keeps_its_order():
    """Unshuffled, the order of a list is who gets which card: another setup."""
    cards = [{"role": "werewolf"}, {"role": "seer"}, {"role": "villager"}]
    setup = Setup.from_game_fields(
        "werewolf", 3, {"mode": "explicit", "cards": cards, "shuffle": False}, {}
    )
    assert jobs.canonical(setup) is setup


def test_only_a_failed_or_silent_job_may_be_started_again():
    now = time.time()
    job = jobs.Job(setup={}, seed=1, asked=10, state=jobs.REFINING, updated=now - 60)
    assert not job.restartable(now)
    assert job.restartable(now + jobs.STALE_SECONDS[jobs.REFINING])
    done = jobs.Job(setup={}, seed=1, asked=10, state=jobs.DONE, updated=now - 10**6)
    assert not done.restartable(now)
    assert jobs.Job(setup={}, seed=1, asked=10, state=jobs.FAILED).restartable(now)


def test_the_games_asked_count_every_round():
    plan = jobs.Plan(first=2000, games=20000, size_games=500, sizes=(8, 16, 24, 48))
    assert plan.asked == 20000 + 4 * 500
    assert jobs.Plan(first=50, games=30, size_games=0, sizes=()).asked == 50
