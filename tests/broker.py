"""The in-memory broker's queues (test settings), for tests that look at what was queued."""

from contextlib import contextmanager

from witchhunt.celery import app


@contextmanager
def broker_queue(name):
    """Queue `name`, emptied before and after."""
    with app.connection_for_write() as conn:
        queue = conn.SimpleQueue(name)
        queue.clear()
        try:
            yield queue
        finally:
            queue.clear()
            queue.close()
