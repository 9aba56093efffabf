"""Jobs the broker would not take, kept until it does.

A write commits in PostgreSQL; what follows from it (a game's emails, a post's
notifications) goes to Celery through the broker (games/queue.py, `after_commit`). While
the broker (Redis) is down, that hand-over fails: the write stands, and the job is kept
as a HeldJob row (`job_hold`, which games/apps.py gives the queue). The beat's
`held_jobs_sweep` (every 30 s on the `email` queue, so it runs only once the broker is
back) queues the rows again, oldest first, and deletes each once the broker has it.

A job is queued again at most once per row: the row is locked and deleted in the
transaction that queues it. The jobs are the ones the services already make safe to run
twice (each email job records what it sent), so the one window left (the broker took it,
then the commit of the delete failed) sends nothing twice.
"""

import logging

from django.db import transaction

from ..models import HeldJob
from ..queue import job_send

logger = logging.getLogger(__name__)

BATCH = 500  # rows a sweep queues at most; the next sweep takes the rest
ERROR_MAX = 300  # HeldJob.last_error


def job_hold(name: str, args: tuple, error: Exception) -> None:
    """Keep the job `name(*args)` that the broker refused, for the sweep."""
    HeldJob.objects.create(name=name, args=list(args), last_error=repr(error)[:ERROR_MAX])
    logger.warning("job %s kept in the database until the broker takes it: %r", name, error)


def held_jobs_send() -> int:
    """Queue the held jobs again, oldest first; returns how many the broker took. Stops at
    the first refusal (the broker is still down: the next sweep tries again)."""
    sent = 0
    for pk in HeldJob.objects.values_list("pk", flat=True)[:BATCH]:
        with transaction.atomic():
            row = HeldJob.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if row is None:  # a rival sweep has it
                continue
            try:
                job_send(row.name, row.args)
            except Exception as exc:
                HeldJob.objects.filter(pk=pk).update(
                    tries=row.tries + 1, last_error=repr(exc)[:ERROR_MAX]
                )
                logger.warning("held jobs wait for the broker: %r", exc)
                break
            row.delete()
            sent += 1
    if sent:
        logger.info("held jobs queued again: %d", sent)
    return sent
