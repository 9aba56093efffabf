"""The setup lab's writes: start an estimate (once per setup and seed), and run one.

The record lives in Django's cache (games/lab/jobs.py says its shape), not in the
database: an estimate is derived data that any worker can make again, so losing it costs
only CPU time. Starting claims the record with cache.add (atomic on Redis and the file
cache alike), so two visitors asking for the same setup at once start one job; the job
itself is the `lab_estimate` task on the `lab` queue, asked for by name through
games/queue.py.

A run plays the setup's first games and publishes an estimate (with its chart) within
LAB_FIRST_SECONDS, plays on to LAB_FIRST_GAMES, then the setup at the other suggested
sizes, then refines the estimate in chunks, publishing as it goes. Game i is played from
its own seed (games/lab/estimate.py), so the refined numbers are exactly those of one long
run, and a first estimate cut short by the clock is the start of the same run. The games
are played over LAB_WORKERS processes (games/lab/parallel.py), ahead of the clock's
checks: while the first estimate is drawn, the next games are already being played.
"""

import logging
import time
from contextlib import closing

from django.conf import settings
from django.core.cache import cache

from games import queue
from games.engine import GameRuleError
from games.lab import jobs
from games.lab.estimate import Estimate, Tally, estimate_of, simulate
from games.lab.parallel import chunk_tallies
from games.lab.scaling import scaled
from games.lab.setups import SIZES, Setup, problems
from games.narration import lab as words

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


def plan_for(setup: Setup) -> jobs.Plan:
    """The rounds of the settings' sizes, leaving out the sizes this setup cannot be
    scaled to (an explicit list larger than the size, a deal the rules refuse)."""
    sizes = tuple(n for n in SIZES if n != setup.seats and _scales_to(setup, n))
    first = min(settings.LAB_FIRST_GAMES, settings.LAB_GAMES)
    return jobs.Plan(first, settings.LAB_GAMES, settings.LAB_SIZE_GAMES, sizes)


def _scales_to(setup: Setup, n: int) -> bool:
    try:
        return not problems(scaled(setup, n))
    except ValueError:
        return False


def _seed(seed):
    return settings.LAB_SEED if seed is None else seed


def _starts_key(user_pk) -> str:
    return f"lab:starts:{user_pk}:{int(time.time() // 3600)}"


def lab_start(*, setup: Setup, user=None, seed: int | None = None, queued=True) -> bool:
    """Start estimating `setup` unless its estimate is cached or on its way (a failed or
    abandoned job is started again). True when a job was claimed, and queued unless
    `queued` is false (the caller then runs it: `lab_run`). A member starting more new
    jobs than LAB_STARTS_PER_HOUR is refused (GameRuleError), cached answers aside."""
    seed = _seed(seed)
    key = jobs.record_key(setup.key(), seed)
    current = cache.get(key)
    if current is not None and not jobs.Job.from_dict(current).restartable():
        return False
    if user is not None:
        starts = _starts_key(user.pk)
        cache.add(starts, 0, 3600)
        if cache.incr(starts) > settings.LAB_STARTS_PER_HOUR:
            raise GameRuleError(
                "you have started as many estimates as the lab runs for one member in an "
                "hour; the setups already estimated are still shown"
            )
    job = jobs.Job(setup=setup.as_dict(), seed=seed, asked=plan_for(setup).asked)
    if current is None:
        claimed = cache.add(key, job.as_dict(), settings.LAB_CACHE_SECONDS)
    else:  # one restart among rivals: the first to take the short lock
        claimed = cache.add(f"{key}:restart", 1, 60)
        if claimed:
            cache.set(key, job.as_dict(), settings.LAB_CACHE_SECONDS)
    if claimed:
        cache.set(jobs.progress_key(setup.key(), seed), 0, settings.LAB_CACHE_SECONDS)
        if queued:
            queue.after_commit("lab_estimate", setup.key(), seed)
    return claimed


def lab_run(*, setup_key: str, seed: int) -> str | None:
    """The task's body: run the queued job of (setup_key, seed) to the end, publishing as
    it goes. Returns the job's final state, or None when there is no queued job (it ran
    already, or its record expired)."""
    key = jobs.record_key(setup_key, seed)
    data = cache.get(key)
    if data is None or data["state"] != jobs.QUEUED:
        return None
    job = jobs.Job.from_dict(data)
    run = _Run(setup_key, job)
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


def lab_store(*, setup: Setup, estimate: Estimate, sizes=()) -> bool:
    """Keep an estimate made elsewhere (the `balance` command) as the lab's answer for
    `setup`, with its chart, so the lab and the new-game form show it without a job. A job
    at work is left alone, and so is a stored answer of as many games or more. `sizes` is
    [(seats, Estimate)] at other sizes. True when stored."""
    seed = settings.LAB_SEED
    key = jobs.record_key(setup.key(), seed)
    current = cache.get(key)
    if current is not None:
        job = jobs.Job.from_dict(current)
        busy = job.state in jobs.WORKING and not job.stale()
        kept = (job.estimate or {}).get("games", 0)
        if busy or (job.state == jobs.DONE and kept >= estimate.games):
            return False
    others = [[n, e.as_dict()] for n, e in sizes if n != setup.seats]
    asked = estimate.games + sum(e["games"] for _, e in others)
    job = jobs.Job(
        setup=setup.as_dict(),
        seed=seed,
        asked=asked,
        state=jobs.DONE,
        estimate=estimate.as_dict(),
        sizes=others,
    )
    job.svg = render_chart(setup, job)
    _save(setup.key(), job, asked)
    return True


def _save(setup_key, job, done):
    """The record, its count of games done and, once there is an estimate, its summary."""
    values = {
        jobs.record_key(setup_key, job.seed): job.as_dict(),
        jobs.progress_key(setup_key, job.seed): done,
    }
    if job.estimate:
        values[jobs.summary_key(setup_key, job.seed)] = job.estimate["teams"][0]
    cache.set_many(values, settings.LAB_CACHE_SECONDS)


class _Run:
    """One job's rounds and what they publish."""

    def __init__(self, setup_key, job):
        self.setup_key, self.job = setup_key, job
        self.progress_key = jobs.progress_key(setup_key, job.seed)
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
                "lab job %s: first estimate, %d games in %.2f s", self.setup_key, tally.games, took
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
            job.svg = render_chart(self.setup, job)
        job.updated = time.time()
        _save(self.setup_key, job, self.done)
        self.published = time.monotonic()


def render_chart(setup: Setup, job: jobs.Job) -> str:
    """The job's chart: its own estimate, and every size's, its own size among them."""
    from games.lab.chart import chart_svg  # matplotlib: loaded by the workers alone

    own = Estimate.from_dict(job.estimate)
    others = [(n, Estimate.from_dict(e)) for n, e in job.sizes]
    by_size = sorted([*others, (setup.seats, own)] if others else [], key=lambda s: s[0])
    return chart_svg(
        title=words.chart_title(setup.label()),
        desc=words.chart_desc(own.teams, own.games, others),
        teams=_bars(own),
        sizes=[(n, _bars(e)) for n, e in by_size],
        current=setup.seats,
    )


def chart_warm():
    """Draw a chart and drop it: the first in a process imports matplotlib and loads its
    fonts (over a second), which the lab's worker does before its first job."""
    from games.lab.chart import Bar, chart_svg

    chart_svg(title="", desc="", teams=[Bar("", 0.5, 0.4, 0.6)])


def _bars(estimate: Estimate) -> list:
    from games.lab.chart import Bar

    return [Bar(words.team_label(t.team), t.share, t.low, t.high) for t in estimate.teams]
