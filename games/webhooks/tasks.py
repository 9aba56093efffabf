"""The webhooks' Celery tasks (autodiscovered), on their own queue `webhooks`
(CELERY_TASK_ROUTES), so a slow chat server never holds up a deadline or an email. The
names never change: a running site's queued messages must still find them."""

from celery import shared_task

from games import queue


# Each row is claimed before it is sent, so a duplicate task sends nothing twice; a failed
# send is pushed back on its row for the sweep, never retried inside the task.
@shared_task(name="games.webhooks.tasks.webhooks_send", ignore_result=True)
def webhooks_send(ids):
    from .services import send

    return send.deliveries_send(ids=ids)


@shared_task(name="games.webhooks.tasks.webhooks_sweep", ignore_result=True)
def webhooks_sweep():
    """The beat's entry (every 10 s): retries due, debounced stories, lost tasks."""
    from .services import send

    return send.deliveries_sweep()


def connect_jobs() -> None:
    queue.connect_job("webhooks_send", webhooks_send.delay)
