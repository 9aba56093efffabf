"""One chunk of an estimate's games, as plain data: what a Celery chunk task plays on any
lab worker (games/lab/tasks.py `lab_chunk`) and what the job's rounds add up
(games/lab/services/rounds.py).

A chunk is games start..stop-1 of one setup at one seed, played by bots of one skill.
Game i is dealt and played from (seed, i) alone (play.py `game_seed`), so chunks played
anywhere, in any order, add up to the same tally as one long run. A chunk may be given a
`deadline` (a wall-clock time, time.time()'s): it then stops at the first game boundary
past it, having played at least `least` games, and says how far it got (`reached`), so
that the games it left are played in a later round.
"""

import time
from collections import Counter

from .estimate import Tally
from .play import play_one
from .setups import Setup
from .skills import DEFAULT


def play_chunk(
    setup: Setup,
    seed: int,
    start: int,
    stop: int,
    skill: str = DEFAULT,
    *,
    deadline: float | None = None,
    least: int = 0,
) -> dict:
    """Games start..stop-1 (fewer past `deadline`), tallied as plain data: {"start",
    "reached" (the first game not played), "wins", "days", "seconds"}."""
    began = time.perf_counter()
    tally = Tally()
    i = start
    while i < stop:
        if deadline is not None and i - start >= least and time.time() >= deadline:
            break
        winner, day = play_one(setup, seed, i, skill=skill)
        tally.add(winner, day)
        i += 1
    return {"start": start, "reached": i, **plain(tally), "seconds": time.perf_counter() - began}


def plain(tally: Tally) -> dict:
    """A tally as JSON can carry it (its keys strings)."""
    return {"wins": dict(tally.wins), "days": {str(d): n for d, n in tally.days.items()}}


def tally_of(data: dict) -> Tally:
    """The Tally that `plain` (or a chunk's result) carries."""
    return Tally(Counter(data["wins"]), Counter({int(d): n for d, n in data["days"].items()}))
