"""`options.option_for`: one action's option, the same as `options_for` lists it; and
`has_option`, the same answer as `options_for` gives."""

import random

from games.engine.options import PLAIN, SINGLE, has_option, option_for, options_for
from tests.engine.walks import walk


def test_option_for_agrees_with_options_for():
    rng = random.Random(17)
    compared = 0
    answers = set()
    for ruleset in ("witchhunt", "werewolf"):
        for _ in range(6):
            for step, game, names in walk(rng, ruleset, (6, 14), 161):
                if step % 20 != 1:
                    continue
                for name in names:
                    listed = {o.action: o.as_dict() for o in options_for(game, name)}
                    for skip in ((), ("vote", "unvote")):
                        found = has_option(game, name, skip=skip)
                        assert found == any(a not in skip for a in listed), (name, skip)
                        answers.add(found)
                    for action in (*SINGLE, *PLAIN, "ability"):
                        got = option_for(game, name, action)
                        assert (got and got.as_dict()) == listed.get(action), (name, action)
                        compared += got is not None
    assert compared > 100 and answers == {True, False}
