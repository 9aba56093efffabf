"""The engine's source, read by the tests that check that every kind of event it can make
has words (narration) and a place among the resolutions (rulings cited)."""

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "games" / "engine"

# An event is made by emit("kind", ...), by Event("kind", ...), or on the hottest paths
# field by field (`ev.kind = "kind"`, base.py's tell and votes; the random proposer's
# `inp.kind = ...` makes an input, not an event).
EVENT_MADE = re.compile(r'(?:emit\(|Event\(|\bev\.kind = )\s*"(\w+)"')


def engine_source(folder: Path = ENGINE) -> str:
    return "\n".join(p.read_text() for p in sorted(folder.rglob("*.py")))


def event_kinds(source: str) -> set[str]:
    """The kinds of event `source` makes by name."""
    return set(EVENT_MADE.findall(source))
