"""The lab's limits: it is shared (docs/lab.md, "Sharing the lab").

A member has one job queued or running at a time, a new job waits behind at most
LAB_QUEUE_MAX others, and a member's new jobs of the last LAB_WINDOW_SECONDS cost at most
LAB_UNITS_PER_WINDOW units, one per LAB_SEATS_PER_UNIT seats. An answer kept or on its way
costs nothing; staff and the commands are not limited. A start (start.py) reads and writes
these under short mutexes (`locked`): the member's (their running job, their window), then
the queue's (the list of jobs at work, the record's claim), so two starts at once never
both take the last place.
"""

import fcntl
import math
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.filebased import FileBasedCache

from games.engine import GameRuleError
from games.lab import jobs
from games.lab import narration as words
from games.lab.simulation.setups import Setup

# A start's mutex: held for a few cache reads and writes; a holder that died lets go after
# LOCK_SECONDS, and a start that cannot take it within LOCK_WAIT is refused as busy.
LOCK_SECONDS = 10
LOCK_WAIT = 5.0
# The cache's list of the jobs at work ([address, seed], pruned at each start) and, per
# member, their job at work and their window's starts ([time, units]).
QUEUE_KEY = "lab:queue"


def running_key(user_pk) -> str:
    return f"lab:member:{user_pk}:running"


def window_key(user_pk) -> str:
    return f"lab:member:{user_pk}:window"


class LabRefused(GameRuleError):
    """A start the lab's limits refuse, in the member's words. `running` is the address of
    the member's job at work when that is the reason, for the page to link to."""

    def __init__(self, message: str, *, running: str | None = None):
        super().__init__(message)
        self.running = running


def lab_cost(setup: Setup) -> int:
    """A job's units against its member's window: one per LAB_SEATS_PER_UNIT seats, rounded
    up (a 48-seat setup's games take about four times a 12-seat one's), never more than the
    window holds, so that any setup can be estimated by a member whose window is empty."""
    units = math.ceil(setup.seats / settings.LAB_SEATS_PER_UNIT)
    return max(1, min(units, settings.LAB_UNITS_PER_WINDOW))


def refuse_running(user, address, seed) -> bool:
    """Refuse while the member's last job is at work; True when that job is this one."""
    held = cache.get(running_key(user.pk))
    if not held:
        return False
    data = cache.get(jobs.record_key(*held))
    if data is None or not jobs.Job.from_dict(data).working():
        return False
    if held == [address, seed]:
        return True
    label = words.setup_label(Setup.from_dict(data["setup"]))
    raise LabRefused(words.still_running(label), running=held[0])


def at_work(now) -> list:
    """The jobs queued or at work, site-wide ([address, seed]): the queue's list without
    those done, failed, abandoned or expired since."""
    listed = cache.get(QUEUE_KEY) or []
    found = cache.get_many([jobs.record_key(a, s) for a, s in listed])
    return [
        [a, s]
        for a, s in listed
        if (data := found.get(jobs.record_key(a, s))) and jobs.Job.from_dict(data).working(now)
    ]


def window_starts(user, now) -> list:
    """The member's starts ([time, units]) of the last LAB_WINDOW_SECONDS."""
    since = now - settings.LAB_WINDOW_SECONDS
    return [[t, units] for t, units in cache.get(window_key(user.pk)) or [] if t > since]


def refuse_spent(setup, cost, window, now):
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
def locked(name: str):
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
