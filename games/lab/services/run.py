"""Run a queued job: its rounds, and what they publish as they go.

A run plays the setup's first games and publishes an estimate (with its chart) within
LAB_FIRST_SECONDS, plays on to LAB_FIRST_GAMES, then the setup at the other suggested
sizes, then refines the estimate in chunks, publishing as it goes. Game i is played from
its own seed (games/lab/simulation/estimate.py), so the refined numbers are exactly those
of one long run, and a first estimate cut short by the clock is the start of the same run.
The games are played over LAB_WORKERS processes (games/lab/simulation/parallel.py), ahead
of the clock's checks: while the first estimate is drawn, the next games are already being
played.
"""

import logging
import time
from contextlib import closing

from django.conf import settings
from django.core.cache import cache

from games.engine import GameRuleError
from games.lab import jobs
from games.lab.simulation.estimate import Tally, estimate_of, simulate
from games.lab.simulation.parallel import chunk_tallies
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import Setup

from .charts import render_charts
from .records import plan_for, record, save

logger = logging.getLogger(__name__)

# Games a chunk plays between looks at the clock (fewer while the first estimate is
# timed), and how often a refining job republishes its estimate and chart (drawing one
# takes a fifth of a second).
FIRST_CHUNK = 20
CHUNK = 200
PUBLISH_SECONDS = 5.0
# The first estimate is drawn and saved this long before LAB_FIRST_SECONDS end, so that it
# is on the page by then (a chart takes a tenth to a fifth of a second on a warm worker).
FIRST_DRAW_SECONDS = 0.25
PROGRESS_EVERY = 100


def lab_run(*, address: str, seed: int) -> str | None:
    """The task's body: run the queued job kept at (address, seed) to the end, publishing as
    it goes. Returns the job's final state, or None when there is no queued job (it ran
    already, its record expired, or it is a custom setup's queued at the setup's key before
    addresses were opaque, which no one could see)."""
    key = jobs.record_key(address, seed)
    job = record(address, seed)  # not one queued before addresses were opaque: no one's
    if job is None or job.state != jobs.QUEUED:
        return None
    run = _Run(address, job)
    try:
        run.play()
    except Exception as e:  # any failure ends the job in words; the log has the trace
        logger.exception("lab job %s failed", key)
        job.state = jobs.FAILED
        # The rules' and the deal's refusals are worded for players; anything else is not.
        known = isinstance(e, GameRuleError | ValueError) and str(e)
        job.error = str(e) if known else "the lab met an error of its own (it is logged)"
        run.publish(chart=False)
    return job.state


class _Run:
    """One job's rounds and what they publish."""

    def __init__(self, address, job):
        self.address, self.job = address, job
        self.progress_key = jobs.progress_key(address, job.seed)
        self.setup = Setup.from_dict(job.setup)
        self.plan = plan_for(self.setup)
        self.job.asked = self.plan.asked
        self.done = 0
        self.published = 0.0
        self.started = time.monotonic()

    def progress(self, base):
        """A `progress(done)` for a round begun when `base` games were done."""
        return lambda done: self.save_done(base + done)

    def save_done(self, done):
        """The count of games done, as the page shows it while the job works."""
        self.done = done
        cache.set(self.progress_key, done, settings.LAB_CACHE_SECONDS)

    def play(self):
        job, plan = self.job, self.plan
        job.state = jobs.RUNNING
        self.publish(chart=False)
        tally = Tally()
        # A first estimate as soon as there is one worth showing: LAB_FIRST_GAMES games, or
        # as many of them as LAB_FIRST_SECONDS allow, however slow the setup's games are.
        # The games past it are already being played on the other cores while it is drawn.
        with closing(self._chunks(0, plan.first, FIRST_CHUNK)) as first:
            due = self.started + settings.LAB_FIRST_SECONDS - FIRST_DRAW_SECONDS
            self._play_to(tally, first, until=due)
            job.state = jobs.REFINING
            self.publish_estimate(tally)
            took = time.monotonic() - self.started
            logger.info(
                "lab job %s: first estimate, %d games in %.2f s", self.address, tally.games, took
            )
            self._play_to(tally, first)
        for n in plan.sizes:
            base = self.done
            other = simulate(
                scaled(self.setup, n),
                games=plan.size_games,
                seed=job.seed,
                progress=self.progress(base),
                every=PROGRESS_EVERY,
                workers=settings.LAB_WORKERS,
            )
            self.done = base + plan.size_games
            job.sizes.append([n, other.as_dict()])
            self.publish_estimate(tally)
        # A slow setup (many seats) stops refining when its time is spent: what it played
        # by then is its answer, and the count asked becomes the count played.
        with closing(self._chunks(tally.games, plan.games, CHUNK)) as rest:
            self._play_to(tally, rest, until=self.started + settings.LAB_MAX_SECONDS)
        job.asked = min(job.asked, self.done)
        job.state = jobs.DONE
        self.publish_estimate(tally)

    def _chunks(self, start, stop, step):
        """The tallies of the setup's games start..stop-1, `step` at a time and in order."""
        return chunk_tallies(self.setup, self.job.seed, start, stop, settings.LAB_WORKERS, step)

    def _play_to(self, tally, chunks, until=None):
        """Merge `chunks` into `tally` until they run out or, given `until` (a monotonic
        time), it has passed and the tally has games: the rest stay in `chunks` for the next
        call. The count done is saved as it passes each hundred games; a refining job
        republishes its estimate every PUBLISH_SECONDS."""
        while until is None or not tally.games or time.monotonic() < until:
            part = next(chunks, None)
            if part is None:
                return
            tally.merge(part)
            before, self.done = self.done, self.done + part.games
            if self.done // PROGRESS_EVERY > before // PROGRESS_EVERY:
                self.save_done(self.done)
            stale = time.monotonic() - self.published >= PUBLISH_SECONDS
            if self.job.state == jobs.REFINING and stale:
                self.publish_estimate(tally)

    def publish_estimate(self, tally):
        self.job.estimate = estimate_of(self.setup, tally, self.job.seed).as_dict()
        self.publish()

    def publish(self, chart=True):
        job = self.job
        if chart and job.estimate:
            job.svgs = render_charts(self.setup, job)
        job.updated = time.time()
        save(self.address, job, self.done)
        self.published = time.monotonic()
