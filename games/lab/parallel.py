"""An estimate's games over several processes, in fixed chunks whose tallies add up."""

import multiprocessing

from .estimate import Tally, play_range

CHUNK = 100  # games a task: short enough to share out evenly, long enough to be cheap


def _chunk(args):
    setup, seed, start, stop = args
    return play_range(setup, seed, start, stop)


def _context():
    """Never a plain fork: a fork of a process with other threads (a web server's, a test
    run's browser driver) can copy a lock some thread held and hang on it. The fork server
    is a fresh single-threaded process that forks the workers, with the lab preloaded."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["games.lab.estimate"])
    return context


def play_parallel(setup, seed, games, workers, progress=None, every=100):
    """The tally of games 0..games-1 over `workers` processes; `progress(done)` as chunks
    finish, each time `done` passes a multiple of `every` (no finer than 25 games)."""
    chunk = max(25, min(CHUNK, every))
    jobs = [(setup, seed, i, min(games, i + chunk)) for i in range(0, games, chunk)]
    total = Tally()
    done = reported = 0
    with _context().Pool(workers) as pool:
        # the sum does not depend on the order the chunks finish in
        for tally in pool.imap_unordered(_chunk, jobs):
            total.merge(tally)
            done += tally.games
            if progress is not None and done // every > reported // every:
                reported = done
                progress(done)
    return total
