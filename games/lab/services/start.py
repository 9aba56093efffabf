"""Start an estimate, once per address and seed, within the lab's limits (limits.py).

The job itself is the `lab_estimate` task on the `lab` queue (games/lab/tasks.py), asked
for by name through games/queue.py.
"""

import time
from contextlib import nullcontext

from django.conf import settings
from django.core.cache import cache

from games import queue
from games.lab import jobs
from games.lab import narration as words
from games.lab.simulation.setups import Setup

from . import limits
from .records import lab_address, plan_for, record, seed_or_default


def lab_start(*, setup: Setup, user=None, seed: int | None = None, queued=True) -> bool:
    """Start estimating `setup` for `user` unless its estimate is kept or on its way at
    `lab_address` (a failed or abandoned job is started again). True when a job was
    claimed, and queued unless `queued` is false (the caller then runs it: `lab_run`).

    A member who is not staff is refused (LabRefused, a GameRuleError) while a job of
    theirs is at work, while LAB_QUEUE_MAX jobs are, and when this job's cost does not fit
    in their window; an answer kept or on its way costs nothing. Without a member (the
    commands) nothing is refused, and the job still counts towards the queue."""
    seed = seed_or_default(seed)
    address = lab_address(setup=setup, user=user, seed=seed)
    current = record(address, seed)
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
    with limits.locked(f"member-{user.pk}") if limited else nullcontext():
        if limited and limits.refuse_running(user, address, seed):
            return False  # this very job, claimed by the member's other request
        with limits.locked("queue"):
            now = time.time()
            at_work = limits.at_work(now)
            if limited and len(at_work) >= settings.LAB_QUEUE_MAX:
                raise limits.LabRefused(words.busy(len(at_work)))
            window = limits.window_starts(user, now) if limited else []
            cost = limits.lab_cost(setup)
            if limited:
                limits.refuse_spent(setup, cost, window, now)
            current = record(address, seed)  # again, now that no rival can claim it
            if current is not None and not current.restartable():
                return False
            job.updated = now
            cache.set_many(
                {
                    jobs.record_key(address, seed): job.as_dict(),
                    jobs.progress_key(address, seed): 0,
                    limits.QUEUE_KEY: [*at_work, [address, seed]],
                },
                settings.LAB_CACHE_SECONDS,
            )
            if limited:
                window_seconds = settings.LAB_WINDOW_SECONDS
                cache.set(limits.window_key(user.pk), [*window, [now, cost]], window_seconds)
                # Read back with the record's state (`refuse_running`): kept as long as it.
                cache.set(limits.running_key(user.pk), [address, seed], settings.LAB_CACHE_SECONDS)
    if queued:
        queue.after_commit("lab_estimate", address, seed)
    return True
