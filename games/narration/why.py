"""Why it ended as it did: each resolution in a game's events, with the ruling that decided it.

The engine's events say what happened (a kill attempt's cause and outcome, who was
protected, the midnight locks) but not which case of a ruling applied: a stored game's
events must replay byte for byte (`mapping.replay_mismatch`), so they stay as they are
and the reason is read back here, walking the events in order with the cards in hand —
W-9's cases in W-9's order, W-10's sources in W-10's order. `tests/games/test_rulings_cited.py`
checks the reading against the engine's own decisions over random games.

For the moderator and the final reveal only (the causes are never told to the living).
"""

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from .labels import Names
from .why_day import Card
from .why_night import NightReader

# The kinds of event that are resolutions: each is given its ruling here (a kill attempt's
# at its announcement, `death` or `survival`; a removal's death at its `removed`).
RESOLUTIONS = frozenset(
    {"lynch", "death", "survival", "public", "game_over", "info", "moderator", "midnight",
     "court_disbanded"}
)  # fmt: skip
# The rest: what players and the moderator do, and what they see of it. The phase event
# opening a night carries the day's "no lynch" (W-4); a morning's, the lapses (W-8a) and
# the pack's failure (WW-7, WW-10).
NOT_RESOLUTIONS = frozenset(
    {"phase", "setup", "vote", "unvote", "coven_vote", "court_vote", "pack_vote", "save_vote",
     "submitted", "withdrawn", "lovers_bound", "replaced", "afterlife"}
)  # fmt: skip


class Ev(NamedTuple):
    kind: str
    phase: str
    data: Mapping
    to: object  # "public", "dead", "moderator" or a tuple of seat names


def cards_of(seats) -> dict[str, Card]:
    """The cards of an engine state's seats (either ruleset), by seat name."""
    return {
        s.name: Card(
            getattr(s, "character", None),
            getattr(s, "type", None),
            getattr(s, "role", None),
            getattr(s, "partner", None),
        )
        for s in seats
    }


def explain(
    events: Iterable[Ev],
    cards: Mapping[str, Card],
    ruleset: str,
    names: Names,
    revision: str = "2b",
):
    """{position in `events`: [Why, ...]} for every resolution among them, in a game
    played under rulings `revision` (W-76: the game's own; W-8a's lapses differ)."""
    return NightReader(list(events), cards, ruleset, names, revision).read()
