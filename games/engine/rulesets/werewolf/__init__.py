"""The Werewolf ruleset (../shared/rules/werewolf-rulings.md)."""

from .game import WerewolfGame
from .setup import read_setup, setup_problems


class Werewolf:
    name = "werewolf"
    GUESSES = frozenset()
    CHOICES = frozenset({"heal", "poison"})
    setup_problems = staticmethod(setup_problems)

    def new_game(self, record):
        seed, options, players = read_setup(record)
        return WerewolfGame(seed, options, players), []

    def final(self, game):
        return {"extra_lives": {name: 0 for name in sorted(game.by_name)}}  # keys sorted (FORMAT)


RULESET = Werewolf()
