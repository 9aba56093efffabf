"""Random games walked step by step, for tests that look at the states along the way."""

from games.engine import new_game
from games.engine.errors import GameRuleError
from games.engine.playout import random_input, random_setup


def walk(rng, ruleset, sizes, steps):
    """(step, game, names) before each of up to `steps` random inputs (refused ones
    included) of a new random game of `ruleset` with a number of seats drawn from `sizes`
    (lo, hi), until it ends."""
    game, _ = new_game(random_setup(rng, ruleset, rng.randint(*sizes)))
    names = [s.name for s in game.seats]
    for step in range(steps):
        if game.over:
            return
        yield step, game, names
        try:
            game.apply(random_input(rng, game, names))
        except GameRuleError:
            pass
