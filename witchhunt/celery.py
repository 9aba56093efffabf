"""The Celery app. `celery -A witchhunt worker` finds it here.

Defaults to local settings like manage.py; containers set DJANGO_SETTINGS_MODULE themselves.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "witchhunt.settings.local")

app = Celery("witchhunt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
