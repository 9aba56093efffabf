"""An estimate's games over several processes, in fixed chunks whose tallies add up."""

import multiprocessing

from .estimate import Tally, play_range

CHUNK = 100  # games a task: short enough to share out evenly, long enough to be cheap


def _chunk(args):
    setup, seed, start, stop = args
    return play_range(setup, seed, start, stop)


def play_parallel(setup, seed, games, workers, progress=None, every=100):
    """The tally of games 0..games-1 over `workers` processes; `progress(done)` as chunks
    finish, each time `done` passes a multiple of `every` (no finer than 25 games)."""
    chunk = max(25, min(CHUNK, every))
    jobs = [(setup, seed, i, min(games, i + chunk)) for i in range(0, games, chunk)]
    total = Tally()
    done = reported = 0
    # fork is cheap and needs no re-import; spawn where fork is unavailable
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(workers) as pool:
        # the sum does not depend on the order the chunks finish in
        for tally in pool.imap_unordered(_chunk, jobs):
            total.merge(tally)
            done += tally.games
            if progress is not None and done // every > reported // every:
                reported = done
                progress(done)
    return total
