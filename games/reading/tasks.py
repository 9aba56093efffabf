"""Reading's Celery task: the daily digest's sweep. Its name stays "games.tasks.digest_sweep"
(where it was first defined), so the beat's schedule (CELERY_BEAT_SCHEDULE) and any
message a running site has queued still find it."""

from celery import shared_task


@shared_task(name="games.tasks.digest_sweep", ignore_result=True)
def digest_sweep():
    """The beat's digest entry (every 5 min, on the `email` queue): each member who asked
    for the daily digest gets it once their local morning comes (services/digest.py)."""
    from .services import digest

    return digest.digests_send()
