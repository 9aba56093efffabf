"""The community's Celery task (autodiscovered): the emails of the site's own notices.
Its name stays "games.tasks.notice_emails", so a message queued before the move (and the
email queue's route, CELERY_TASK_ROUTES) still finds it."""

from celery import shared_task

from games import queue
from games.tasks import RETRY


@shared_task(name="games.tasks.notice_emails", ignore_result=True, **RETRY)
def notice_emails(ids, preference):
    """The emails of the site's own notifications (sign-ups: services/notices.py)."""
    from .services import notices

    return notices.notice_emails_send(ids=ids, preference=preference)


def connect_jobs() -> None:
    """What the community's services ask for after a commit is queued as its task."""
    queue.connect_job("notice_emails", notice_emails.delay)
