"""The bots' shortcuts decide as the slow way they replace: the same inputs, the same
random draws, over whole games."""

import random

from games.lab.simulation import bots, play
from games.lab.simulation.setups import suggested


def _inputs(inputs):
    return [(i.action, i.targets, i.choice) for i in inputs]


def _ww_witch_by_option(bot):
    """The Werewolf Witch as the engine's option for her ability lists it."""
    option = bot.view.option("ability")
    if option is None:
        return []
    out = []
    victim = bot.healable
    if "heal" in option.choices and victim is not None and bot.known.get(victim) != "evil":
        out += bot.ability(choice="heal")
    enemies = bot.enemies(option.targets)
    if "poison" in option.choices and enemies:
        out += bot.ability([bot.rng.choice(enemies)], choice="poison")
    return out


def test_the_werewolf_witch_decides_as_her_option_says(monkeypatch):
    fast = bots.POWERS["witch"]
    seen = {"heal": 0, "poison": 0}

    def both(bot):
        # The Witch seldom knows a Werewolf: here she takes a neighbour for one (a guess
        # the engine does not judge), so that the poison is decided too.
        neighbour = next(n for n in bot.view.living if n != bot.me)
        bot.known.setdefault(neighbour, "evil")
        state = bot.rng.getstate()
        slow = _ww_witch_by_option(bot)
        after = bot.rng.getstate()
        bot.rng.setstate(state)
        out = fast(bot)
        assert _inputs(out) == _inputs(slow)
        assert bot.rng.getstate() == after
        for inp in out:
            seen[inp.choice] += 1
        return out

    monkeypatch.setitem(bots.POWERS, "witch", both)
    setup = suggested("werewolf", 24)
    for index in range(40):
        seed = play.game_seed(3, index)
        play.play_game(play.engine_setup(setup, seed), random.Random(seed))
    assert seen["heal"] and seen["poison"]
