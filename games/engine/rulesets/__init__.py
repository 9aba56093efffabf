"""Rulesets: each module exposes `RULESET`, an object with the Ruleset interface (base.py)."""

from ..errors import RecordError


def get_ruleset(name):
    # Imported lazily so that a record of one ruleset never loads the other.
    if name == "witchhunt":
        from .witchhunt import RULESET
    elif name == "werewolf":
        from .werewolf import RULESET
    else:
        raise RecordError(f"unknown ruleset {name!r} (expected 'witchhunt' or 'werewolf')")
    return RULESET


RULESET_NAMES = ("witchhunt", "werewolf")
