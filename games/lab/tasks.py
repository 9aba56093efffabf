"""The lab's Celery tasks (a job's start, its chunks, its rounds' callback) and its
worker's warm-up: thin wrappers, the services imported in the tasks' bodies. Celery's
autodiscovery finds this module (games.lab is an installed app); the app's ready()
connects the job's name (games/queue.py) to the task.

The task keeps its name, "games.tasks.lab_estimate", from when it lived in games/tasks.py:
messages queued by a running site still find it, and CELERY_TASK_ROUTES sends it by that
name to the `lab` queue.
"""

import logging
import os

from celery import shared_task
from celery.signals import celeryd_after_setup
from django.conf import settings

logger = logging.getLogger(__name__)
LAB_NICENESS = 10


# The lab's estimates (games/lab/services/run.py): a job begins once, and a late duplicate
# finds it no longer queued and does nothing. On the workers it only issues the first
# round's chunks; where there are no chunk tasks it plays the job to its end, and the soft
# limit ends a runaway job as failed.
@shared_task(name="games.tasks.lab_estimate", ignore_result=True, soft_time_limit=1800)
def lab_estimate(address, seed):
    from games.lab import services

    return services.lab_begin(address=address, seed=seed)


# One chunk of a job's games, on any lab worker: its tally as plain data, and the worker's
# name. Acknowledged late, so a worker process holds one chunk at a time (with a prefetch
# multiplier of 1): a round's chunks go to every idle worker rather than queue behind the
# one that took the first. A game's error comes back in words, for the round to fail on.
@shared_task(
    bind=True,
    name="games.lab.tasks.lab_chunk",
    ignore_result=False,
    acks_late=True,
    soft_time_limit=600,
)
def lab_chunk(self, setup, seed, start, stop, skill, deadline=None, least=0):
    from games.lab.services import chunk_error, play
    from games.lab.simulation.setups import Setup

    spec = {"seats": 0, "skill": skill, "start": start, "stop": stop, "deadline": deadline}
    try:
        result = play(Setup.from_dict(setup), seed, {**spec, "least": least})
    except Exception as e:
        logger.exception("a lab chunk failed")
        return {"error": chunk_error(e)}
    return {**result, "host": self.request.hostname}


# A round's callback (the chord's body): adds the round up and issues the next.
@shared_task(name="games.lab.tasks.lab_round", ignore_result=True, soft_time_limit=120)
def lab_round(results, address, seed, run_id):
    from games.lab import services

    return services.lab_round_done(results, address=address, seed=seed, run_id=run_id)


@celeryd_after_setup.connect
def lab_worker_warm(sender, instance, **kwargs):
    """A worker taking the `lab` queue draws a chart before its first job: matplotlib's
    import and fonts take over a second the first time, inside the 2 s a first estimate is
    due in. Sent in the worker's main process before its pool starts, so that every pool
    process is forked warm (and nice)."""
    if settings.LAB_QUEUE in instance.app.amqp.queues.consume_from:
        from games.lab import services

        services.chart_warm()
        # The lab's chunks yield the CPU to the site's own work (web, the clock's deadlines)
        # on a shared machine; the pool's processes inherit it.
        os.nice(LAB_NICENESS)
