"""The Celery app. `celery -A witchhunt worker` finds it here.

Defaults to local settings like manage.py; containers set DJANGO_SETTINGS_MODULE themselves.
"""

import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "witchhunt.settings.local")

app = Celery("witchhunt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@after_setup_logger.connect
@after_setup_task_logger.connect
def _redact_worker_logs(logger, **kwargs):
    """A worker's own handlers (Celery replaces the root's) redact as the site's do."""
    from witchhunt.redact import RedactFilter

    for handler in logger.handlers:
        handler.addFilter(RedactFilter())
