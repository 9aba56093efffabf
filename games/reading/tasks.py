"""Reading's Celery tasks: a post's mention and quote emails, a day vote's wagon alerts,
and the daily digest's sweep. Their names are the ones they had in games/tasks.py, so
that the beat's schedule (CELERY_BEAT_SCHEDULE) and messages a running site queued before
still find them (routes: settings.CELERY_TASK_ROUTES)."""

from celery import shared_task

from games import queue
from games.tasks import RETRY


@shared_task(name="games.tasks.post_notification_emails", ignore_result=True)
def post_notification_emails(post_id):
    from .services import notifications

    return notifications.post_emails_send(post_id=post_id)


@shared_task(name="games.tasks.vote_alerts", ignore_result=True, **RETRY)
def vote_alerts(game_id, phase, votes, wagons, living):
    from .services import notifications

    return notifications.vote_alerts_send(
        game_id=game_id, phase=phase, votes=votes, wagons=wagons, living=living
    )


@shared_task(name="games.tasks.digest_sweep", ignore_result=True)
def digest_sweep():
    """The beat's digest entry (every 5 min, on the `email` queue): each member who asked
    for the daily digest gets it once their local morning comes (services/digest.py)."""
    from .services import digest

    return digest.digests_send()


def connect_jobs() -> None:
    """What the services ask for after a commit (queue.after_commit) is queued as these."""
    queue.connect_job("post_notification_emails", post_notification_emails.delay)
    queue.connect_job("vote_alerts", vote_alerts.delay)
