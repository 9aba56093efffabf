"""Celery tasks: thin wrappers, ids in, one service call each, the service imported in
the task's body (so importing this module never imports the services, and the services
never import it). `make run`'s embedded beat, the compose worker and beat, and the tests
all run the same code.

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
    """The beat entry (every 30 s, CELERY_BEAT_SCHEDULE): advance due games, pass due
    midnights, send due reminders."""
    from games.services import sweep

    return sweep.clock_sweep()


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


def connect_receivers() -> None:
    """What the services ask for after a commit is queued as these tasks."""
    queue.connect("game_phase_emails", game_phase_emails.delay)
    queue.connect("game_role_emails", game_role_emails.delay)
