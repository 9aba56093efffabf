"""The lab's Celery task and its worker's warm-up: thin wrappers, the services imported in
the task's body. Celery's autodiscovery finds this module (games.lab is an installed app);
the app's ready() connects the job's name (games/queue.py) to the task.

The task keeps its name, "games.tasks.lab_estimate", from when it lived in games/tasks.py:
messages queued by a running site still find it, and CELERY_TASK_ROUTES sends it by that
name to the `lab` queue.
"""

from celery import shared_task
from celery.signals import celeryd_after_setup


# The lab's estimates (games/lab/services/run.py): a job runs once, and a late duplicate
# finds it no longer queued and does nothing. The soft limit ends a runaway job as failed.
@shared_task(name="games.tasks.lab_estimate", ignore_result=True, soft_time_limit=1800)
def lab_estimate(address, seed):
    from games.lab import services

    return services.lab_run(address=address, seed=seed)


@celeryd_after_setup.connect
def lab_worker_warm(sender, instance, **kwargs):
    """A worker taking the `lab` queue draws a chart before its first job: matplotlib's
    import and fonts take over a second the first time, inside the 2 s a first estimate is
    due in. Sent in the worker's main process before its pool starts, so that every pool
    process is forked warm."""
    if "lab" in instance.app.amqp.queues.consume_from:
        from games.lab import services

        services.chart_warm()
