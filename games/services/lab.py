"""The setup lab's writes: start an estimate (once per address and seed), and run one.

The record lives in Django's cache (games/lab/jobs.py says its shape), not in the
database: an estimate is derived data that any worker can make again, so losing it costs
only CPU time. The job itself is the `lab_estimate` task on the `lab` queue, asked for by
name through games/queue.py.

Where an estimate is kept (`lab_address`): a suggested setup's at its own key, one answer
for everyone (it is public anyway); a member's own setup at an opaque token of the member,
the setup and the seed. So a host who checks a hidden setup leaves nothing another member
can find by computing the setup's key, and another member asking for the same setup gets
a job of their own, queued and timed like any new one, rather than a shared "done" that
would say someone had asked.

The lab is shared (docs/lab.md, "Sharing the lab"): a member has one job queued or running
at a time, a new job waits behind at most LAB_QUEUE_MAX others, and a member's new jobs of
the last LAB_WINDOW_SECONDS cost at most LAB_UNITS_PER_WINDOW units, one per
LAB_SEATS_PER_UNIT seats. An answer kept or on its way costs nothing; staff and the
commands are not limited. A start reads and writes these under short mutexes (`_locked`):
the member's (their running job, their window), then the queue's (the list of jobs at work,
the record's claim), so two starts at once never both take the last place.

A run plays the setup's first games and publishes an estimate (with its chart) within
LAB_FIRST_SECONDS, plays on to LAB_FIRST_GAMES, then the setup at the other suggested
sizes, then refines the estimate in chunks, publishing as it goes. Game i is played from
its own seed (games/lab/estimate.py), so the refined numbers are exactly those of one long
run, and a first estimate cut short by the clock is the start of the same run. The games
are played over LAB_WORKERS processes (games/lab/parallel.py), ahead of the clock's
checks: while the first estimate is drawn, the next games are already being played.
"""

import fcntl
import logging
import math
import time
import uuid
from contextlib import closing, contextmanager, nullcontext
from pathlib import Path

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.filebased import FileBasedCache
from django.utils.crypto import salted_hmac

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


# The salt of a member's estimate's address (with SECRET_KEY, salted_hmac's secret).
ADDRESS_SALT = "games.lab.address"
# A start's mutex: held for a few cache reads and writes; a holder that died lets go after
# LOCK_SECONDS, and a start that cannot take it within LOCK_WAIT is refused as busy.
LOCK_SECONDS = 10
LOCK_WAIT = 5.0
# The cache's list of the jobs at work ([address, seed], pruned at each start) and, per
# member, their job at work and their window's starts ([time, units]).
QUEUE_KEY = "lab:queue"


def _running_key(user_pk) -> str:
    return f"lab:member:{user_pk}:running"


def _window_key(user_pk) -> str:
    return f"lab:member:{user_pk}:window"


class LabRefused(GameRuleError):
    """A start the lab's limits refuse, in the member's words. `running` is the address of
    the member's job at work when that is the reason, for the page to link to."""

    def __init__(self, message: str, *, running: str | None = None):
        super().__init__(message)
        self.running = running


def lab_address(*, setup: Setup, user=None, seed: int | None = None) -> str:
    """Where the estimate of `setup` that `user` asks for is kept and shown (32 hex
    digits). A suggested setup's own key: public anyway, one answer for everyone. A member's
    own setup: an HMAC of the member, the setup's key and the seed, so that the address
    says nothing of the setup to anyone else (SECRET_KEY is the HMAC's secret) and is the
    same each time that member asks. Without a member (the commands), the setup's key."""
    key = setup.key()
    if user is None or key in jobs.PUBLIC_KEYS:
        return key
    value = f"{user.pk}:{key}:{_seed(seed)}"
    return salted_hmac(ADDRESS_SALT, value, algorithm="sha256").hexdigest()[:32]


def lab_cost(setup: Setup) -> int:
    """A job's units against its member's window: one per LAB_SEATS_PER_UNIT seats, rounded
    up (a 48-seat setup's games take about four times a 12-seat one's), never more than the
    window holds, so that any setup can be estimated by a member whose window is empty."""
    units = math.ceil(setup.seats / settings.LAB_SEATS_PER_UNIT)
    return max(1, min(units, settings.LAB_UNITS_PER_WINDOW))


def _record(address, seed) -> jobs.Job | None:
    """The job kept at `address`, if it is one a start there may reuse: a record written
    before addresses were opaque, at a custom setup's key, is no one's and is replaced."""
    data = cache.get(jobs.record_key(address, seed))
    if data is None:
        return None
    job = jobs.Job.from_dict(data)
    if job.owner is None and not job.visible_to(address, None):
        return None
    return job


def lab_start(*, setup: Setup, user=None, seed: int | None = None, queued=True) -> bool:
    """Start estimating `setup` for `user` unless its estimate is kept or on its way at
    `lab_address` (a failed or abandoned job is started again). True when a job was
    claimed, and queued unless `queued` is false (the caller then runs it: `lab_run`).

    A member who is not staff is refused (LabRefused, a GameRuleError) while a job of
    theirs is at work, while LAB_QUEUE_MAX jobs are, and when this job's cost does not fit
    in their window; an answer kept or on its way costs nothing. Without a member (the
    commands) nothing is refused, and the job still counts towards the queue."""
    seed = _seed(seed)
    address = lab_address(setup=setup, user=user, seed=seed)
    current = _record(address, seed)
    if current is not None and not current.restartable():
        return False
    public = address == setup.key()
    job = jobs.Job(
        setup=setup.as_dict(),
        seed=seed,
        asked=plan_for(setup).asked,
        owner=None if public else user.pk,
        public=public,
    )
    limited = user is not None and not user.is_staff
    with _locked(f"member-{user.pk}") if limited else nullcontext():
        if limited and _refuse_running(user, address, seed):
            return False  # this very job, claimed by the member's other request
        with _locked("queue"):
            now = time.time()
            at_work = _at_work(now)
            if limited and len(at_work) >= settings.LAB_QUEUE_MAX:
                raise LabRefused(words.busy(len(at_work)))
            window = _window(user, now) if limited else []
            cost = lab_cost(setup)
            if limited:
                _refuse_spent(setup, cost, window, now)
            current = _record(address, seed)  # again, now that no rival can claim it
            if current is not None and not current.restartable():
                return False
            job.updated = now
            cache.set_many(
                {
                    jobs.record_key(address, seed): job.as_dict(),
                    jobs.progress_key(address, seed): 0,
                    QUEUE_KEY: [*at_work, [address, seed]],
                },
                settings.LAB_CACHE_SECONDS,
            )
            if limited:
                window_seconds = settings.LAB_WINDOW_SECONDS
                cache.set(_window_key(user.pk), [*window, [now, cost]], window_seconds)
                # Read back with the record's state (`_refuse_running`): kept as long as it.
                cache.set(_running_key(user.pk), [address, seed], settings.LAB_CACHE_SECONDS)
    if queued:
        queue.after_commit("lab_estimate", address, seed)
    return True


def _refuse_running(user, address, seed) -> bool:
    """Refuse while the member's last job is at work; True when that job is this one."""
    held = cache.get(_running_key(user.pk))
    if not held:
        return False
    data = cache.get(jobs.record_key(*held))
    if data is None or not jobs.Job.from_dict(data).working():
        return False
    if held == [address, seed]:
        return True
    label = Setup.from_dict(data["setup"]).label()
    raise LabRefused(words.still_running(label), running=held[0])


def _at_work(now) -> list:
    """The jobs queued or at work, site-wide ([address, seed]): the queue's list without
    those done, failed, abandoned or expired since."""
    listed = cache.get(QUEUE_KEY) or []
    found = cache.get_many([jobs.record_key(a, s) for a, s in listed])
    return [
        [a, s]
        for a, s in listed
        if (data := found.get(jobs.record_key(a, s))) and jobs.Job.from_dict(data).working(now)
    ]


def _window(user, now) -> list:
    """The member's starts ([time, units]) of the last LAB_WINDOW_SECONDS."""
    since = now - settings.LAB_WINDOW_SECONDS
    return [[t, units] for t, units in cache.get(_window_key(user.pk)) or [] if t > since]


def _refuse_spent(setup, cost, window, now):
    """Refuse a job whose cost does not fit in the member's window, saying when it will:
    once enough of the window's oldest starts have left it."""
    budget = settings.LAB_UNITS_PER_WINDOW
    used = sum(units for _, units in window)
    if used + cost <= budget:
        return
    over, fits_at = used + cost - budget, now
    for t, units in sorted(window):
        over -= units
        fits_at = t + settings.LAB_WINDOW_SECONDS
        if over <= 0:
            break
    raise LabRefused(
        words.window_spent(
            seats=setup.seats,
            cost=cost,
            used=used,
            budget=budget,
            per_unit=settings.LAB_SEATS_PER_UNIT,
            window_minutes=math.ceil(settings.LAB_WINDOW_SECONDS / 60),
            minutes=max(1, math.ceil((fits_at - now) / 60)),
        )
    )


@contextmanager
def _locked(name: str):
    """A mutex across the site's processes, for a start's few cache reads and writes.
    cache.add is atomic on Redis (SET NX) and in a process's own cache; the file cache's
    is a look then a write, so there the lock is an flock on a file beside the cache's."""
    backend = caches["default"]
    if isinstance(backend, FileBasedCache):
        path = Path(backend._dir) / f"lab-{name}.lock"  # not *.djcache: never culled
        path.parent.mkdir(parents=True, exist_ok=True)  # as the cache's own writes do
        with open(path, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)  # released at close, or when the process dies
            yield
        return
    key, token = f"lab:lock:{name}", uuid.uuid4().hex
    deadline = time.monotonic() + LOCK_WAIT
    while not cache.add(key, token, LOCK_SECONDS):
        if time.monotonic() > deadline:
            raise LabRefused(words.busy())
        time.sleep(0.01)
    try:
        yield
    finally:
        if cache.get(key) == token:  # not a later holder's, had this one outlived its time
            cache.delete(key)


def lab_run(*, address: str, seed: int) -> str | None:
    """The task's body: run the queued job kept at (address, seed) to the end, publishing as
    it goes. Returns the job's final state, or None when there is no queued job (it ran
    already, its record expired, or it is a custom setup's queued at the setup's key before
    addresses were opaque, which no one could see)."""
    key = jobs.record_key(address, seed)
    job = _record(address, seed)  # not one queued before addresses were opaque: no one's
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


def lab_store(*, setup: Setup, estimate: Estimate, sizes=()) -> bool:
    """Keep an estimate made elsewhere (the `balance` command) as the lab's answer for
    `setup`, with its chart, so the lab and the new-game form show it without a job. A job
    at work is left alone, and so is a stored answer of as many games or more. `sizes` is
    [(seats, Estimate)] at other sizes. True when stored."""
    seed = settings.LAB_SEED
    job = _record(setup.key(), seed)
    if job is not None:
        busy = job.working()
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
        public=True,  # at the setup's own key: the operator's to publish
    )
    job.svg = render_chart(setup, job)
    _save(setup.key(), job, asked)
    return True


def _save(address, job, done):
    """The record, its count of games done and, once there is an estimate, its summary."""
    values = {
        jobs.record_key(address, job.seed): job.as_dict(),
        jobs.progress_key(address, job.seed): done,
    }
    if job.estimate:
        values[jobs.summary_key(address, job.seed)] = job.estimate["teams"][0]
    cache.set_many(values, settings.LAB_CACHE_SECONDS)


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
            job.svg = render_chart(self.setup, job)
        job.updated = time.time()
        _save(self.address, job, self.done)
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
