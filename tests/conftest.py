"""Fixtures shared by every Django test suite."""

import pytest
from django.conf import settings
from django.core.cache import caches

from tests.factories import UserFactory


def pytest_report_header(config):
    # Says which servers a run used: the same suite runs on SQLite or on PostgreSQL.
    database = settings.DATABASES["default"]
    where = f" on {database['HOST']}:{database['PORT']}" if database.get("HOST") else ""
    return f"database: {database['ENGINE'].rsplit('.', 1)[-1]}{where}"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """allauth counts rate limits in the cache; a test must not inherit another's counts
    (nor the game page's cached parts)."""
    for cache in caches.all():
        cache.clear()
    yield
    for cache in caches.all():
        cache.clear()


@pytest.fixture
def member(db):
    """A signed-up member whose email address is verified."""
    return UserFactory()


@pytest.fixture(autouse=True)
def _outbox_sent_in_process():
    """The outbox's after-commit task (`emails_send`, games/mail.py) runs its body at once
    in the test's process, as the worker would, so a test that runs its commit callbacks
    finds the game emails in mail.outbox. tests/games/test_email_delivery.py runs a real
    worker and a real mail server instead."""
    from games import queue, tasks

    queue.connect_job("emails_send", tasks.emails_send.run)
    yield
    queue.connect_job("emails_send", tasks.emails_send.delay)
