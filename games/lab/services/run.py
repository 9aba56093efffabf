"""Run a queued job: its rounds of chunks (rounds.py), and what they publish as they go.

A job publishes a first estimate (with its chart) within LAB_FIRST_SECONDS, then the skill
band, the setup at the other suggested sizes, and the refined estimate, round by round.
Game i is played from its own seed (games/lab/simulation/chunks.py), so the final numbers
are exactly those of one long run however the chunks were spread.

Two ways to run the rounds, the same rounds and the same answer:

- on the workers (LAB_CHUNK_TASKS, the site with Redis): `lab_begin` (the `lab_estimate`
  task) issues the first round as a Celery chord: a group of `lab_chunk` tasks on the
  `lab` queue, which any lab worker on any machine takes, and the `lab_round` task as its
  callback, run once the round's last chunk has returned (Redis, the result backend,
  counts them). `lab_round_done` adds the round up, issues the next round's chord, then
  publishes. No task ever waits for another: the job is a chain of short callbacks between
  rounds, not a task holding a worker's process while its chunks queue behind it, so a
  single worker process serves a job (its chunks, then the callback, then the next
  round's chunks) and cannot deadlock. The state between rounds is in the cache.
- here (`lab_run`: the commands, the tests, and the task where there is no Redis result
  backend, a developer's machine): each round's chunks are played one after another in
  this process.

Cancelling (cancel.py) sets a flag and revokes the outstanding round's chunks; a round's
callback that finds the flag stops, and one that issued a round before the flag was set
looks again after saving, so a cancel is never lost between the two.
"""

import logging
import time
import uuid

from django.conf import settings
from django.core.cache import cache

from games.engine import GameRuleError
from games.lab import jobs
from games.lab.simulation.chunks import play_chunk
from games.lab.simulation.estimate import estimate_of
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import Setup

from . import rounds
from .charts import render_charts
from .records import plan_for, record, save

logger = logging.getLogger(__name__)

CHUNK_TASK = "games.lab.tasks.lab_chunk"
ROUND_TASK = "games.lab.tasks.lab_round"
# How often a refining job redraws its chart (drawing one takes a fifth of a second); the
# numbers and the count of games are saved after every round.
PUBLISH_SECONDS = 5.0
# The first estimate is drawn and saved this long before LAB_FIRST_SECONDS end, so that it
# is on the page by then (a chart takes a tenth to a fifth of a second on a warm worker).
FIRST_DRAW_SECONDS = 0.25
# Kept for the bench's first estimate played as the job once played it.
FIRST_CHUNK = rounds.FIRST_CHUNK


def rounds_key(address: str, seed: int) -> str:
    return f"lab:{address}:{seed}:rounds"


def cancel_key(address: str, seed: int) -> str:
    return f"lab:{address}:{seed}:cancel"


def lab_run(*, address: str, seed: int) -> str | None:
    """Run the queued job kept at (address, seed) to the end in this process, publishing as
    it goes. Returns the job's final state, or None when there is no queued job (it ran
    already, its record expired, or it is a custom setup's queued at the setup's key before
    addresses were opaque, which no one could see)."""
    run = _Run.begin(address, seed)
    if run is None:
        return None
    try:
        while specs := run.next_round():
            if run.cancelled():
                return run.stop_cancelled()
            run.take([play(run.setup, run.job.seed, spec) for spec in specs])
        run.finish()
    except Exception as e:  # any failure ends the job in words; the log has the trace
        run.fail(e)
    return run.job.state


def lab_begin(*, address: str, seed: int) -> str | None:
    """The `lab_estimate` task's body on the workers: begin the queued job and issue its
    first round. Without chunk tasks (no Redis result backend) the job runs here."""
    if not settings.LAB_CHUNK_TASKS:
        return lab_run(address=address, seed=seed)
    run = _Run.begin(address, seed)
    if run is None:
        return None
    if run.cancelled():
        return run.stop_cancelled()
    try:
        if not run.issue():
            run.finish()
    except Exception as e:
        run.fail(e)
    return run.job.state


def lab_round_done(results: list, *, address: str, seed: int, run_id: str) -> str | None:
    """The `lab_round` task's body: add up a round's chunks, issue the next round, publish.
    A callback of an earlier run at the same address (cancelled, then started again) finds
    another run's state and does nothing."""
    run = _Run.resume(address, seed, run_id)
    if run is None:
        return None
    if run.cancelled():
        return run.stop_cancelled()
    try:
        worded = [r["error"] for r in results if r.get("error")]
        if worded:
            raise ChunkFailed(worded[0])
        run.take(results, publish=False)
        if not run.issue():
            run.finish()
    except Exception as e:
        run.fail(e)
    return run.job.state


class ChunkFailed(Exception):
    """A chunk's game failed on a worker; its words are the chunk's (`chunk_error`)."""


def chunk_error(error: Exception) -> str:
    """An error in words for the job's page: the rules' and the deal's refusals are worded
    for players; anything else is not (the log has it)."""
    known = isinstance(error, GameRuleError | ValueError | ChunkFailed) and str(error)
    return str(error) if known else "the lab met an error of its own (it is logged)"


def chunk_setup(setup: Setup, spec: dict) -> Setup:
    """The setup a round's chunk plays: the job's own, or it at another size (`seats`)."""
    return setup if not spec["seats"] else scaled(setup, spec["seats"])


def play(setup: Setup, seed: int, spec: dict) -> dict:
    """A round's chunk played here (the `lab_chunk` task plays it the same way)."""
    return play_chunk(
        chunk_setup(setup, spec),
        seed,
        spec["start"],
        spec["stop"],
        spec["skill"],
        deadline=spec.get("deadline"),
        least=spec.get("least", 0),
    )


class _Run:
    """One job's record and rounds' state, as a round leaves them."""

    def __init__(self, address, job, state):
        self.address, self.job, self.state = address, job, state
        self.setup = Setup.from_dict(job.setup)
        self.plan = plan_for(self.setup)
        self.published = 0.0

    @classmethod
    def begin(cls, address, seed):
        job = record(address, seed)  # not one queued before addresses were opaque: no one's
        if job is None or job.state != jobs.QUEUED:
            return None
        run = cls(address, job, None)
        run.state = rounds.initial(run.plan, time.time())
        run.state["run"] = uuid.uuid4().hex
        job.asked = run.plan.asked
        job.state = jobs.RUNNING
        run.save_state()
        run.publish(chart=False)
        return run

    @classmethod
    def resume(cls, address, seed, run_id):
        state = cache.get(rounds_key(address, seed))
        job = record(address, seed)
        if state is None or job is None or state.get("run") != run_id:
            return None
        return cls(address, job, state)

    def cancelled(self) -> bool:
        """Whether this run was cancelled: by its id, or (cancelled while it began, before
        its id was kept) by a flag set after it began. A flag left by an earlier run at
        the same address, cancelled before this one was started, is neither."""
        flag = cache.get(cancel_key(self.address, self.job.seed))
        if not flag:
            return False
        if flag["run"] is None:
            return flag["at"] >= self.state["started"]
        return flag["run"] == self.state["run"]

    def next_round(self) -> list:
        now = time.time()
        started = self.state["started"]
        return rounds.next_round(
            self.state,
            now,
            ahead=settings.LAB_CHUNKS_AHEAD,
            first_due=started + settings.LAB_FIRST_SECONDS - FIRST_DRAW_SECONDS,
            until=started + settings.LAB_MAX_SECONDS,
            seconds=settings.LAB_CHUNK_SECONDS,
        )

    def issue(self) -> bool:
        """The next round as a chord on the `lab` queue, if there is one (False when the
        job has played all it will); the state (with the chunks' task ids, for a cancel to
        revoke) saved before it is sent. Published after it is sent, so that the workers
        play while the chart is drawn."""
        from celery import chord, signature

        specs = self.next_round()
        if not specs:
            return False
        ids = [uuid.uuid4().hex for _ in specs]
        self.state["chunks"] = ids
        self.save_state()
        seed = self.job.seed
        header = [
            signature(CHUNK_TASK, args=self.chunk_args(spec), immutable=True).set(task_id=task_id)
            for spec, task_id in zip(specs, ids, strict=True)
        ]
        run_id = self.state["run"]
        body = signature(
            ROUND_TASK, kwargs={"address": self.address, "seed": seed, "run_id": run_id}
        )
        chord(header)(body)
        self.publish_round()
        if self.cancelled():  # cancelled while this round was issued: its revoke missed it
            revoke(ids)
            self.stop_cancelled()
        return True

    def chunk_args(self, spec):
        deadline, least = spec.get("deadline"), spec.get("least", 0)
        return (
            chunk_setup(self.setup, spec).as_dict(),
            self.job.seed,
            spec["start"],
            spec["stop"],
            spec["skill"],
            deadline,
            least,
        )

    def take(self, results, publish=True):
        before = self.state["round"] == 1
        rounds.absorb(self.state, results)
        if before:  # what the first estimate holds, and the workers that played it
            self.state["first_games"] = rounds.tally(self.state).games
            hosts = {r.get("host") for r in results if r["reached"] > r["start"]} - {None}
            self.state["first_hosts"] = sorted(hosts)
            logger.info(
                "lab job %s: first estimate, %d games in %.2f s",
                self.address,
                self.state["first_games"],
                time.time() - self.state["started"],
            )
        self.save_state()
        if publish:
            self.publish_round()

    def publish_round(self):
        """The numbers as the rounds so far leave them; the chart redrawn after the first
        estimate and then every PUBLISH_SECONDS."""
        job, state = self.job, self.state
        typical = rounds.tally(state)
        if not typical.games:
            return
        first = job.state == jobs.RUNNING
        job.state = jobs.REFINING
        job.estimate = estimate_of(self.setup, typical, job.seed).as_dict()
        self._collect_done()
        stale = time.monotonic() - self.published >= PUBLISH_SECONDS
        self.publish(chart=first or stale)

    def _collect_done(self):
        """The band and the other sizes, each once all its games are in."""
        job, state = self.job, self.state
        if not job.band and all(rounds.complete(state, s) for s in rounds.BAND):
            job.band = {
                s: estimate_of(self.setup, rounds.tally(state, s), job.seed).as_dict()
                for s in rounds.BAND
            }
        have = {n for n, _ in job.sizes}
        for n in self.plan.sizes:
            if n not in have and rounds.complete(state, rounds.DEFAULT, n):
                other = scaled(self.setup, n)
                est = estimate_of(other, rounds.tally(state, rounds.DEFAULT, n), job.seed)
                job.sizes.append([n, est.as_dict()])
        job.sizes.sort(key=lambda pair: pair[0])

    def finish(self):
        """Every round is in (or the time is spent: the count asked becomes the count
        played)."""
        self.publish_round()
        self.job.asked = min(self.job.asked, rounds.played(self.state))
        self.job.state = jobs.DONE
        self.publish()

    def fail(self, error):
        logger.error("lab job %s failed", self.address, exc_info=error)
        self.job.state = jobs.FAILED
        self.job.error = chunk_error(error)
        self.publish(chart=False)

    def stop_cancelled(self) -> str:
        self.job.state = jobs.CANCELLED
        self.publish(chart=False)
        return self.job.state

    def save_state(self):
        cache.set(rounds_key(self.address, self.job.seed), self.state, settings.LAB_CACHE_SECONDS)

    def publish(self, chart=True):
        job = self.job
        if chart and job.estimate:
            job.svgs = render_charts(self.setup, job)
            self.published = time.monotonic()
        job.updated = time.time()
        save(self.address, job, rounds.played(self.state))


def revoke(ids):
    """Revoke chunk tasks: a worker drops them unplayed (those already playing finish)."""
    if ids:
        from celery import current_app

        current_app.control.revoke(ids)
