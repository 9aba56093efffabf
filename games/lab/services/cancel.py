"""Cancel a job at work: its owner (a member's own setup) or staff, from its page.

The flag is set first, then the outstanding round's chunks are revoked (a worker drops a
revoked task unplayed; a chunk already playing finishes, its round's callback then finds
the flag and stops), then the record says cancelled. A round issued meanwhile is caught by
its own look at the flag after it is sent (run.py `_Run.issue`).
"""

import time

from django.conf import settings
from django.core.cache import cache

from games.lab import jobs

from .records import record, save, seed_or_default
from .run import cancel_key, revoke, rounds_key


def may_cancel(job: jobs.Job, user) -> bool:
    """A member cancels their own setup's estimate; staff any. A suggested setup's is
    everyone's answer: only staff stop it."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or (job.owner is not None and job.owner == user.pk)


def lab_cancel(*, address: str, user, seed: int | None = None) -> bool:
    """Cancel the job at (address, seed) if it is at work and `user` may: True when it was."""
    seed = seed_or_default(seed)
    job = record(address, seed)
    if job is None or not job.working() or not may_cancel(job, user):
        return False
    state = cache.get(rounds_key(address, seed)) or {}
    # A queued job has no run yet: its task finds the record cancelled and does nothing,
    # or, beginning at this very moment, finds the flag (a run begun before it was set).
    flag = {"run": state.get("run"), "at": time.time()}
    cache.set(cancel_key(address, seed), flag, settings.LAB_CACHE_SECONDS)
    revoke(state.get("chunks", []))
    job.state = jobs.CANCELLED
    job.updated = time.time()
    done = cache.get(jobs.progress_key(address, seed)) or 0
    save(address, job, done)
    return True
