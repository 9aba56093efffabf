"""Celery tasks: thin wrappers, ids in, one call each. The work and its tests live in
games/clock.py and games/emails.py, so `make run`'s embedded beat, the compose worker
and beat, and the tests all run the same code."""

from celery import shared_task
from django.db import OperationalError

from . import clock, emails

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
    return clock.clock_sweep()


@shared_task(name="games.tasks.game_phase_emails", ignore_result=True, **RETRY)
def game_phase_emails(game_id, kind, phase, first_event):
    return emails.phase_emails_send(
        game_id=game_id, kind=kind, phase=phase, first_event=first_event
    )


@shared_task(name="games.tasks.game_role_emails", ignore_result=True, **RETRY)
def game_role_emails(game_id):
    return emails.role_emails_send(game_id=game_id)
