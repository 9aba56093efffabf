"""The options' one-probe shortcut (`options._Probe`): a check decided without reading the
target stands for every target. The options it gives are those of probing every seat."""

import random

import pytest

from games.engine import new_game, options
from games.engine.options import options_for
from games.engine.playout import random_input, random_setup


class _ReadsAll(options._Probe):
    """A probe that always says its targets were read: every seat probed, as before."""

    __slots__ = ()

    @property
    def read(self):
        return True

    @read.setter
    def read(self, value):
        pass


@pytest.mark.parametrize("ruleset", ["witchhunt", "werewolf"])
def test_one_probe_gives_the_options_of_every_probe(ruleset, monkeypatch):
    rng = random.Random(41)
    for _ in range(6):
        game, _ = new_game(random_setup(rng, ruleset, rng.randint(6, 16)))
        names = [s.name for s in game.seats]
        for step in range(160):
            if game.over:
                break
            if step % 9 == 4:
                fast = {n: [o.as_dict() for o in options_for(game, n)] for n in names}
                with monkeypatch.context() as m:
                    m.setattr(options, "_Probe", _ReadsAll)
                    slow = {n: [o.as_dict() for o in options_for(game, n)] for n in names}
                assert fast == slow
            try:
                game.apply(random_input(rng, game, names))
            except options.GameRuleError:
                pass
