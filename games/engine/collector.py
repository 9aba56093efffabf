"""The cyclic garbage collector, paused while a game is played or replayed.

A game's objects (seats, events, votes) live until its end and hold no cycles; the
collector's passes over them mid-game find nothing and cost about a tenth of a replay's
time. It is resumed afterwards only if it ran before, so nesting is harmless."""

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
