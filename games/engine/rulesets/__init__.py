"""Rulesets: each module exposes `RULESET`, an object with the Ruleset interface (base.py)."""

from ..errors import RecordError


def get_ruleset(name):
    # Imported here, not at the top: each ruleset imports this package (base.py) itself.
    if name == "witchhunt":
        from .witchhunt import RULESET
    elif name == "werewolf":
        from .werewolf import RULESET
    else:
        raise RecordError(f"unknown ruleset {name!r} (expected 'witchhunt' or 'werewolf')")
    return RULESET


RULESET_NAMES = ("witchhunt", "werewolf")
