"""Web push's fixtures: a stand-in push service on 127.0.0.1 (pushservice.py) and the push
jobs run in this process, as the `email` worker would run them."""

from contextlib import contextmanager

import pytest
from django.conf import settings

from games import queue
from games.push import services
from games.push import tasks as push_tasks

from .pushservice import PushService


@contextmanager
def push_jobs_in_process():
    queue.connect_job("push_member_told", push_tasks.push_member_told.run)
    try:
        yield
    finally:
        push_tasks.connect_jobs()


@pytest.fixture
def push_service():
    with PushService(settings.WEBPUSH_VAPID_PUBLIC_KEY) as service:
        yield service


@pytest.fixture
def push_jobs():
    with push_jobs_in_process():
        yield


def subscribe(service, user, kind="push"):
    """A browser of `user` subscribed at the stand-in (the row the site keeps)."""
    sub = service.subscription(kind)
    services.subscription_save(
        user=user, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"],
        auth=sub["keys"]["auth"], label="Test browser",
    )  # fmt: skip
    return sub
