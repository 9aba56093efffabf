"""What the engine keeps beside its state to save work agrees with the state it stands for:
the phase's name (kept with the day and night), the day's counts (kept vote by vote), the
majority a vote checks on its own target alone (W-4), and the record parser's quick path
for the usual step (the same Input, or the same refusal, as its general path)."""

import pickle
import random

import pytest

from games.engine import new_game
from games.engine.errors import RecordError
from games.engine.inputs import ACTION_KEYS, USUAL_KEYS, _action_step, parse_step
from games.engine.playout import random_input, random_setup
from games.engine.rulesets import get_ruleset
from games.engine.rulesets.base import ALIVE

GAMES = [("witchhunt", n, seed) for n in (7, 12, 20, 33) for seed in range(6)] + [
    ("werewolf", n, seed) for n in (5, 9, 16) for seed in range(6)
]
FIELDS = ("kind", "actor", "action", "target", "targets", "guess", "choice", "what", "word")


def _phase(game):
    return f"night {game.day}" if game.night else f"day {game.day}"


def _assert_kept(game):
    assert game.phase == _phase(game)
    tally = game.votes
    recount = {}
    for target in tally.votes.values():
        recount[target] = recount.get(target, 0) + 1
    assert tally.counts == recount
    if not game.night and not game.over:
        # W-4: every change that could make a majority is followed by the check, so none
        # stands unlynched (a vote checks its own target's count alone, relying on it).
        need = len([s for s in game.seats if s.status == ALIVE]) // 2 + 1
        assert all(n < need for n in tally.counts.values()), (game.day, tally.counts)


@pytest.mark.parametrize(("ruleset", "n", "seed"), GAMES)
def test_kept_values_agree_with_the_state_after_every_input(ruleset, n, seed):
    rng = random.Random(seed)
    game, _ = new_game(random_setup(rng, ruleset, n))
    names = [s.name for s in game.seats]
    _assert_kept(game)
    for _ in range(1500):
        if game.over:
            break
        if game.try_apply(random_input(rng, game, names)) is None:
            _assert_kept(game)
    state = game.__getstate__()
    assert "phase" not in state and "_actions" not in state  # derived: never pickled
    copy = pickle.loads(pickle.dumps(game))
    assert copy.phase == game.phase and copy._actions is game._actions
    _assert_kept(copy)


def _step(action, actor="ann"):
    step = {"actor": actor, "action": action}
    for key in sorted(USUAL_KEYS[action] - {"actor", "action"}):
        step[key] = "ability" if key == "what" else "bob"
    return step


@pytest.mark.parametrize("ruleset", ["witchhunt", "werewolf"])
@pytest.mark.parametrize("action", sorted(ACTION_KEYS))
def test_the_usual_step_parses_as_the_general_path_does(ruleset, action):
    rules = get_ruleset(ruleset)
    steps = [_step(action)]
    if action == "ability":
        steps.append({"actor": "ann", "action": "ability", "targets": ["bob", "cy"]})
    for step in steps:
        quick, general = parse_step(step, "s", rules), _action_step(step, "s", rules)
        assert [getattr(quick, f) for f in FIELDS] == [getattr(general, f) for f in FIELDS]
    # the same words for a usual-looking step that is not well formed
    bad = [_step(action, actor=""), _step(action, actor=7)]
    if "target" in USUAL_KEYS[action]:
        bad.append({**_step(action), "target": ["bob"]})
    if action == "withdraw":
        bad.append({**_step(action), "what": "lunch"})
    if action == "ability":
        bad.append({"actor": "ann", "action": "ability", "targets": "bob"})
    for step in bad:
        with pytest.raises(RecordError) as quick:
            parse_step(step, "s", rules)
        with pytest.raises(RecordError) as general:
            _action_step(step, "s", rules)
        assert str(quick.value) == str(general.value)
