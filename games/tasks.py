"""Celery tasks: thin wrappers, ids in, one service call each, the service imported in
the task's body (so importing this module never imports the services, and the services
never import it). `make run`'s embedded beat, the compose workers and beat, and the tests
all run the same code.

Three queues (CELERY_TASK_ROUTES): `clock` for the sweeps that end phases, `email` for every
email and the reminder sweep, so a burst of emails never holds up a deadline, and `lab` for
the setup lab's estimates (games/lab/tasks.py); compose runs a worker for each.

The services ask for the emails by name through games/queue.py; `connect_receivers`,
called when the app is ready (games/apps.py), connects those names to these tasks.
"""

from celery import shared_task
from django.db import OperationalError

from . import queue

# An email task that meets a busy database (SQLite under `make run` refuses a second
# writer) tries again later: its rows rolled back with it, so no email goes out twice.
RETRY = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": 2,
    "retry_jitter": True,
    "max_retries": 6,
}


@shared_task(name="games.tasks.clock_sweep", ignore_result=True)
def clock_sweep():
    """The beat's clock entry (every 10 s, CELERY_BEAT_SCHEDULE): advance due games and
    pass due midnights, asking for more sweeps when a burst is due."""
    from games.services import sweep

    return sweep.clock_sweep()


# Expires: a sweep still queued after a minute is obsolete (the beat has planned anew).
@shared_task(name="games.tasks.clock_sweep_more", ignore_result=True, expires=60)
def clock_sweep_more():
    """Another clock sweep sharing a burst, or carrying on one that spent its budget."""
    from games.services import sweep

    return sweep.clock_sweep(share=False)


@shared_task(name="games.tasks.reminder_sweep", ignore_result=True)
def reminder_sweep():
    """The beat's reminder entry (every 30 s): send due deadline reminders."""
    from games.services import sweep

    return sweep.reminder_sweep()


@shared_task(name="games.tasks.email_sweep", ignore_result=True)
def email_sweep():
    """The beat's email entry (every 30 s): send the outbox's emails that are due again
    after a failure, or whose `emails_send` never ran (services.outbox)."""
    from games.services import outbox

    return outbox.emails_sweep()


@shared_task(name="games.tasks.held_jobs_sweep", ignore_result=True)
def held_jobs_sweep():
    """The beat's held-jobs entry (every 30 s): queue again the jobs the broker refused
    while it was down (services.held_jobs)."""
    from games.services import held_jobs

    return held_jobs.held_jobs_send()


# The outbox's rows written by a transaction that committed (games/mail.py). The rows are
# claimed one by one, so a retried or duplicate task sends none twice; a failed send is
# pushed back on its row (the sweep tries it again), never retried in the task.
@shared_task(name="games.tasks.emails_send", ignore_result=True, **RETRY)
def emails_send(ids):
    from games.services import outbox

    return outbox.emails_send(ids=ids)


@shared_task(name="games.tasks.game_phase_emails", ignore_result=True, **RETRY)
def game_phase_emails(game_id, kind, phase, first_event):
    from games.services import emails

    return emails.phase_emails_send(
        game_id=game_id, kind=kind, phase=phase, first_event=first_event
    )


@shared_task(name="games.tasks.game_role_emails", ignore_result=True, **RETRY)
def game_role_emails(game_id):
    from games.services import emails

    return emails.role_emails_send(game_id=game_id)


@shared_task(name="games.tasks.game_result_email", ignore_result=True, **RETRY)
def game_result_email(game_id, user_id, phase):
    from games.services import emails

    return emails.result_email_send(game_id=game_id, user_id=user_id, phase=phase)


def connect_receivers() -> None:
    """What the services ask for after a commit is queued as these tasks."""
    queue.connect_job("clock_sweep_more", clock_sweep_more.delay)
    queue.connect_job("emails_send", emails_send.delay)
    queue.connect_job("game_phase_emails", game_phase_emails.delay)
    queue.connect_job("game_role_emails", game_role_emails.delay)
    queue.connect_job("game_result_email", game_result_email.delay)
