"""The options' one-probe shortcut (`options._Probe`): a check decided without reading the
target stands for every target. The options it gives are those of probing every seat."""

import random

import pytest

from games.engine import options
from games.engine.options import options_for
from tests.engine.walks import walk


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
    compared = 0
    for _ in range(6):
        for step, game, names in walk(rng, ruleset, (6, 16), 160):
            if step % 9 != 4:
                continue
            fast = {n: [o.as_dict() for o in options_for(game, n)] for n in names}
            with monkeypatch.context() as m:
                m.setattr(options, "_Probe", _ReadsAll)
                slow = {n: [o.as_dict() for o in options_for(game, n)] for n in names}
            assert fast == slow
            compared += 1
    assert compared > 50
