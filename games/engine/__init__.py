"""The rules engine: pure Python, no Django (a test enforces it).

One API serves every caller (the web services, `play_record`, the tests):
- `new_game(record)` -> (game, warnings): a game at Day 1 from a setup;
- `apply(game, step)` -> (game, events): apply one input; raises GameRuleError with a
  reason a player understands when the rules refuse it (and then nothing changed);
  the game is changed in place unless `copy=True`;
- `visible_events(game, seat)`: what a seat may see now (views.py);
- `setup_problems(ruleset, setup)`: every problem with a setup at once;
- `records`: game records (FORMAT.md) and their results;
- `REVISIONS`, `CURRENT_REVISION`: the rulings revisions a game may be played under, and a
  new game's (W-76).
"""

import copy as _copy

from .errors import GameRuleError, RecordError
from .events import DEAD, MODERATOR, PUBLIC, Event
from .inputs import Input, parse_step
from .records import begin
from .revisions import CURRENT as CURRENT_REVISION
from .revisions import REVISIONS
from .rulesets import RULESET_NAMES, get_ruleset
from .views import visible_events

__all__ = [
    "CURRENT_REVISION",
    "DEAD",
    "MODERATOR",
    "PUBLIC",
    "REVISIONS",
    "RULESET_NAMES",
    "Event",
    "GameRuleError",
    "Input",
    "RecordError",
    "apply",
    "get_ruleset",
    "new_game",
    "parse_input",
    "setup_problems",
    "visible_events",
]


def new_game(record):
    """A game at Day 1. `record` is a game record's setup (ruleset, revision, seed, options,
    players, lovers); the game is played under its `revision` (W-76; "2b" when it names
    none). Returns (game, warnings); raises RecordError for a setup that cannot be played."""
    _ruleset, game, warnings = begin(record)
    return game, warnings


def parse_input(game, step):
    """A record step (dict) as an Input for `game`'s ruleset; raises RecordError."""
    return parse_step(step, "step", get_ruleset(game.RULESET))


def apply(game, inp, *, copy=False):
    """Apply `inp` (an Input or a record step dict); returns (game, new events).

    Raises GameRuleError, leaving the game unchanged, when the rules refuse the input."""
    if isinstance(inp, dict):
        inp = parse_input(game, inp)
    if copy:
        game = _copy.deepcopy(game)
    return game, game.apply(inp)


def setup_problems(ruleset, setup):
    """Every problem with `setup` at once, as (level, message) with level error|warning."""
    return get_ruleset(ruleset).setup_problems(setup)
