"""Web push's Celery tasks (autodiscovered), on the `email` queue with every message that
tells a member something (CELERY_TASK_ROUTES)."""

from celery import shared_task

from games import queue
from games.tasks import RETRY

# After a failed try, the next ones (seconds): a push service down for a while is tried
# three more times over about half an hour, then the notification is dropped (the page
# and the emails still say it).
AGAIN_AFTER = (60, 300, 1800)


@shared_task(name="games.push.tasks.push_member_told", ignore_result=True, **RETRY)
def push_member_told(user_id, game_id, kind):
    from .services import member_told_push

    sent = member_told_push(user_id=user_id, game_id=game_id, kind=kind)
    for subscription_id in sent.retry:
        push_again.apply_async(
            (subscription_id, sent.data, kind, 0),
            countdown=AGAIN_AFTER[0],
        )
    return sent.sent


@shared_task(name="games.push.tasks.push_again", ignore_result=True, **RETRY)
def push_again(subscription_id, data, kind, attempt):
    from .services import FAILED, deliver_again

    result = deliver_again(subscription_id=subscription_id, data=data, kind=kind)
    if result == FAILED and attempt + 1 < len(AGAIN_AFTER):
        push_again.apply_async(
            (subscription_id, data, kind, attempt + 1), countdown=AGAIN_AFTER[attempt + 1]
        )
    return result


def connect_jobs() -> None:
    queue.connect_job("push_member_told", push_member_told.delay)
