"""A delivery end to end through a real Celery worker (Celery's test worker, in a thread)
taking the `webhooks` queue over a real Redis broker: the story is told in a committed
write, the named job `webhooks_send` is queued after the commit, routed to the
webhooks' queue, and the worker posts it to a server on loopback.

Needs Redis: CI sets REDIS_URL. The worker thread reads the rows, so the test commits."""

import time
import uuid

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connections

from games import queue
from games.models import WebhookDelivery
from games.webhooks import tasks
from tests.games.conftest import make_game
from tests.games.test_celery_worker import REDIS_URL, needs_redis
from tests.games.webhooks.conftest import destination, tell


@pytest.fixture
def webhooks_worker_app():
    """An app like witchhunt/celery.py on the Redis broker, its queues renamed to ones of
    its own (no other worker on that Redis takes this test's task)."""
    app = Celery("witchhunt-webhooks-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    suffix = uuid.uuid4().hex
    queues = {
        r["queue"]: f"{r['queue']}-test-{suffix}" for r in settings.CELERY_TASK_ROUTES.values()
    }
    app.conf.update(
        broker_url=REDIS_URL,
        broker_transport_options={},
        task_routes={
            t: {"queue": queues[r["queue"]]} for t, r in settings.CELERY_TASK_ROUTES.items()
        },
        task_default_queue=f"default-test-{suffix}",
        task_always_eager=False,
    )
    app.finalize()
    app.test_queue = queues["webhooks"]
    # The named job goes through this app's broker (what witchhunt/celery.py's app does).
    queue.connect_job(
        "webhooks_send", lambda ids: app.send_task(tasks.webhooks_send.name, args=[ids])
    )
    yield app
    tasks.connect_jobs()
    with app.connection_for_write() as conn:
        for name in queues.values():
            conn.default_channel.queue_delete(name)


@pytest.mark.slow
@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_worker_on_the_webhooks_queue_posts_a_story_told_in_a_committed_write(
    webhooks_worker_app, moderator, cast_users, serve
):
    assert settings.CELERY_TASK_ROUTES[tasks.webhooks_send.name] == {"queue": "webhooks"}
    game = make_game(moderator, cast_users)
    server = serve("generic")
    destination(game, server)
    worker = start_worker(
        webhooks_worker_app,
        pool="solo",
        perform_ping_check=False,
        loglevel="WARNING",
        queues=[webhooks_worker_app.test_queue],
    )
    with worker:
        tell(game)  # commits: the job is queued after the commit
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not server.posted:
            time.sleep(0.2)
    connections.close_all()
    assert len(server.posted) == 1  # verified by the server's signature check
    assert WebhookDelivery.objects.get().status == "sent"
