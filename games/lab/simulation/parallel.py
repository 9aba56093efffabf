"""An estimate's games over several processes, in fixed chunks whose tallies add up.

The processes are billiard's (Celery's fork of multiprocessing) because the lab's job runs
in a Celery prefork worker's child, a daemonic process: the standard library refuses a
daemonic process children of its own, billiard does not. Each process plays every
`workers`-th chunk and sends its tallies back; they are handed on in the games' order, so
a run cut short is always games start..k-1, the start of the same run.
"""

import os
import pickle
import queue
import traceback

import billiard

from .estimate import Tally, play_range
from .skills import DEFAULT

CHUNK = 100  # games a chunk: short enough to share out evenly, long enough to be cheap
POLL_SECONDS = 1.0  # how often a wait for a chunk looks whether its process died
# The processes yield the CPU to the site's own (web, the clock's deadlines) when they
# share a machine: an estimate may take longer, a page or a deadline should not.
NICENESS = 10


def _context():
    """Never a plain fork: a fork of a process with other threads (a web server's, a test
    run's browser driver) can copy a lock some thread held and hang on it. The fork server
    is a fresh single-threaded process that forks the workers, with the lab preloaded."""
    if "forkserver" not in billiard.get_all_start_methods():
        return billiard.get_context("spawn")
    context = billiard.get_context("forkserver")
    context.set_forkserver_preload(["games.lab.simulation.estimate"])
    return context


def _play(setup, seed, chunks, out, reader, skill=DEFAULT):
    """One process's share: each (index, start, stop) in turn, its tally sent as
    (index, tally, None), or (index, None, (the error, its trace)) if a game failed. It
    stops when the process `reader` that reads them is gone (killed: nothing stopped this
    one), rather than play the rest of its share for nobody."""
    os.nice(NICENESS)
    for index, start, stop in chunks:
        if not _running(reader):
            return
        try:
            out.put((index, play_range(setup, seed, start, stop, skill=skill), None))
        except Exception as e:
            out.put((index, None, (_sendable(e), traceback.format_exc())))
            return


def _sendable(error):
    """The error itself when it survives the trip (a deal's refusal is in a player's words),
    else one that says what it was."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def _running(pid):
    try:
        os.kill(pid, 0)  # no signal: asks only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, and is another user's
        pass
    return True


def chunk_tallies(setup, seed, start, stop, workers, chunk=CHUNK, skill=DEFAULT):
    """The tallies of games start..stop-1, `chunk` games each, in the games' order: played
    over `workers` processes when there are chunks enough to share, else here as they are
    asked for. The processes play ahead of the reader; closing the generator early (or an
    error) stops them."""
    bounds = [(i, s, min(stop, s + chunk)) for i, s in enumerate(range(start, stop, chunk))]
    if workers < 2 or len(bounds) < 2:
        for _, first, end in bounds:
            yield play_range(setup, seed, first, end, skill=skill)
        return
    context = _context()
    out = context.Queue()
    shares = [(setup, seed, bounds[w::workers], out, os.getpid(), skill) for w in range(workers)]
    processes = [
        context.Process(target=_play, args=share, daemon=True) for share in shares if share[2]
    ]
    for process in processes:
        process.start()
    arrived = {}
    try:
        for index in range(len(bounds)):
            while index not in arrived:
                got, tally = _receive(out, processes, processes[index % workers])
                arrived[got] = tally
            yield arrived.pop(index)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join()
        out.close()


def _receive(out, processes, owner):
    """The next (index, tally) any process sends, waiting for one of `owner`'s; the error a
    game met in another process (its trace added as a note), or an error if a process died
    or `owner` ended without sending it (looked at before every wait: the others may go on
    sending for a long time)."""
    while True:
        if any(p.exitcode not in (None, 0) for p in processes):
            raise RuntimeError("a lab process stopped before its games were played")
        try:
            index, tally, error = out.get(timeout=POLL_SECONDS)
        except queue.Empty:
            # A process killed meanwhile is told at the top of the loop (its exit code may
            # only now be known); one that ended of itself without sending is told here.
            if owner.exitcode == 0:
                raise RuntimeError("a lab process ended without sending its games") from None
            continue
        if error is not None:
            error, trace = error
            error.add_note(f"in a lab process:\n{trace}")
            raise error
        return index, tally


def play_parallel(setup, seed, games, workers, progress=None, every=100, skill=DEFAULT):
    """The tally of games 0..games-1 over `workers` processes; `progress(done)` as chunks
    arrive, each time `done` passes a multiple of `every` (no finer than 25 games)."""
    total = Tally()
    reported = 0
    chunk = max(25, min(CHUNK, every))
    for tally in chunk_tallies(setup, seed, 0, games, workers, chunk, skill):
        total.merge(tally)
        if progress is not None and total.games // every > reported // every:
            reported = total.games
            progress(reported)
    return total
