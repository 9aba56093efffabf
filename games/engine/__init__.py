"""The rules engine: pure Python, no Django (a test enforces it).

One API serves every caller (the web services, `play_record`, the tests):
- `new_game(record)` -> (game, warnings): a game at Day 1 from a setup;
- `apply(game, step)` -> (game, events): apply one input; raises GameRuleError with a
  reason a player understands when the rules refuse it (and then nothing changed);
  the game is changed in place unless `copy=True`;
- `visible_events(game, seat)`: what a seat may see now (views.py), `can_see` one event,
  `sees_everything` whether a seat sees them all (W-17);
- `setup_problems(ruleset, setup)`: every problem with a setup at once;
- `records`: game records (FORMAT.md) and their results;
- `REVISIONS`, `CURRENT_REVISION`: the rulings revisions a game may be played under, and a
  new game's (W-76); `REVISION_ANCHOR`, where each ruleset's rulings say what a revision is.

And what the rest of the project reads of the rules, from here rather than the modules
that hold it (ruff bans those from the web layer: games/ruff.toml):
- `Refusal`: a refusal kept as meaning, worded by `games.narration.refusals` (a
  `CardName` in its arguments is a card, worded there too);
- `Phase`: a phase name ("day 3") as a value;
- the options a seat has now and coming (`options_for`, `option_for`, `has_option`,
  `coming_options`) and the actions a seat may withdraw (`WITHDRAWABLE`);
- the card tables: Witchhunt's `CHARACTERS`, `TYPES` and `HOLY`, Werewolf's `ROLES`, its
  alignments (`GOOD`, `EVIL`, `WILD`) and the roles dealt more than once (`REPEATABLE`);
- a seat's status (`ALIVE`, `LAST_ACT`, `REMOVED`), the day's count (`Tally`, `majority`)
  and its tie order (`sha_key`, W-5a).
"""

import copy as _copy

from .errors import GameRuleError, RecordError
from .events import DEAD, MODERATOR, PUBLIC, Event
from .inputs import WITHDRAWABLE, Input, parse_step
from .options import coming_options, has_option, option_for, options_for
from .order import sha_key
from .phases import DAY, NIGHT, Phase
from .records import begin
from .revisions import ANCHOR as REVISION_ANCHOR
from .revisions import CURRENT as CURRENT_REVISION
from .revisions import REVISIONS
from .rulesets import RULESET_NAMES, get_ruleset
from .rulesets.base import ALIVE, LAST_ACT, REMOVED
from .rulesets.werewolf.roles import EVIL, GOOD, REPEATABLE, ROLES, WILD
from .rulesets.witchhunt.cards import CHARACTERS, HOLY, TYPES
from .views import can_see, sees_everything, visible_events
from .votes import Tally, majority
from .words import CardName, Refusal

__all__ = [
    "ALIVE",
    "CHARACTERS",
    "CURRENT_REVISION",
    "DAY",
    "DEAD",
    "EVIL",
    "GOOD",
    "HOLY",
    "LAST_ACT",
    "MODERATOR",
    "NIGHT",
    "PUBLIC",
    "REMOVED",
    "REPEATABLE",
    "REVISIONS",
    "REVISION_ANCHOR",
    "CardName",
    "Refusal",
    "ROLES",
    "RULESET_NAMES",
    "TYPES",
    "WILD",
    "WITHDRAWABLE",
    "Event",
    "GameRuleError",
    "Input",
    "Phase",
    "RecordError",
    "Tally",
    "apply",
    "can_see",
    "coming_options",
    "get_ruleset",
    "has_option",
    "majority",
    "new_game",
    "option_for",
    "options_for",
    "parse_input",
    "records",
    "sees_everything",
    "setup_problems",
    "sha_key",
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
