"""The Witchhunt 9.0 ruleset (../shared/rules/witchhunt-rulings.md)."""

from operator import attrgetter

from .cards import CHARACTERS, TYPES
from .game import WitchhuntGame
from .setup import read_setup, setup_problems

BY_NAME = attrgetter("name")  # a seat's sort key, without a Python call a seat


class Witchhunt:
    name = "witchhunt"
    GUESSES = frozenset(CHARACTERS)
    CHOICES = frozenset(TYPES)
    setup_problems = staticmethod(setup_problems)

    def new_game(self, record):
        """A game at Day 1 from a record's setup; returns (game, warnings)."""
        seed, options, players, lovers, warnings = read_setup(record)
        return WitchhuntGame(seed, options, players, lovers), warnings

    def final(self, game):
        # FORMAT: the keys of an object keyed by names are sorted
        return {"extra_lives": {p.name: p.lives for p in sorted(game.seats, key=BY_NAME)}}


RULESET = Witchhunt()
