"""A phase as a value: "day 3" and "night 2" read in one place, rather than each caller
splitting the engine's phase names ("day N", "night N") itself."""

from dataclasses import dataclass
from functools import lru_cache, total_ordering

DAY, NIGHT = "day", "night"


@total_ordering
@dataclass(frozen=True, slots=True)
class Phase:
    """`Phase.parse("day 3")`; `str()` gives the name back. Phases order as they come:
    day N, night N, day N + 1."""

    kind: str  # DAY or NIGHT
    number: int

    @staticmethod
    def parse(text) -> "Phase | None":
        """The phase `text` names; None for text that names none (a game not yet dealt
        has the phase "")."""
        return _parse(str(text))

    @property
    def is_night(self) -> bool:
        return self.kind == NIGHT

    def next(self) -> "Phase":
        """The phase after this one, unless the game ends: day N -> night N -> day N + 1."""
        if self.kind == DAY:
            return Phase(NIGHT, self.number)
        return Phase(DAY, self.number + 1)

    def previous(self) -> "Phase":
        """The phase before this one: day N -> night N - 1, night N -> day N."""
        if self.kind == DAY:
            return Phase(NIGHT, self.number - 1)
        return Phase(DAY, self.number)

    def __str__(self):
        return f"{self.kind} {self.number}"

    def __lt__(self, other):
        if not isinstance(other, Phase):
            return NotImplemented
        return (self.number, self.is_night) < (other.number, other.is_night)


# Cached: the readers of a game's events ask for the same few names once per event.
@lru_cache(maxsize=512)
def _parse(text: str) -> Phase | None:
    kind, _space, number = text.partition(" ")
    if kind in (DAY, NIGHT) and number.isascii() and number.isdigit():
        return Phase(kind, int(number))
    return None
