"""Account emails are queued for the Celery worker once the request's transaction commits;
these fixtures play the worker's part in-process."""

from contextlib import contextmanager

import pytest

from witchhunt.celery import app as celery_app


@pytest.fixture
def worker(django_capture_on_commit_callbacks):
    """`with worker():` sends, as the worker would, the emails the block queued."""

    @contextmanager
    def run():
        celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
        try:
            with django_capture_on_commit_callbacks(execute=True):
                yield
        finally:
            celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)

    return run
