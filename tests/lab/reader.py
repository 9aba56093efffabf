"""A reader of a run's chunks that is then killed, for tests/lab/test_estimate.py: run as
`python -m tests.lab.reader`, it takes one chunk of a long run over two processes, prints
the processes' ids and waits to be killed."""

import time

import billiard

from games.lab.simulation.parallel import chunk_tallies
from games.lab.simulation.setups import suggested

if __name__ == "__main__":
    chunks = chunk_tallies(suggested("witchhunt", 8), 1, 0, 100_000, workers=2, chunk=20)
    next(chunks)
    print(*[p.pid for p in billiard.active_children()], flush=True)
    time.sleep(120)
