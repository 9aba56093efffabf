"""Settings for the lab's worker processes in tests/games/lab/test_lab_chunks.py: the test
settings, on the Redis at REDIS_URL as broker, result backend and cache, with the lab's
queue, cache prefix and LAB_* numbers the test gives in the environment (so that no other
worker on that Redis takes its chunks, and nothing is left among another run's keys)."""

import json
import os

from witchhunt.settings.test import *  # noqa: F403
from witchhunt.settings.test import CELERY_TASK_ROUTES

REDIS_URL = os.environ["REDIS_URL"]
CELERY_BROKER_URL = CELERY_RESULT_BACKEND = REDIS_URL
QUEUE = os.environ["LAB_TEST_QUEUE"]
CELERY_TASK_ROUTES = {
    task: {"queue": QUEUE} if route["queue"] == "lab" else route
    for task, route in CELERY_TASK_ROUTES.items()
}
CACHES = {
    "default": {
        "BACKEND": "witchhunt.cache.TolerantRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": os.environ["LAB_TEST_PREFIX"],
    },
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"},
}
LAB_CHUNK_TASKS = True
globals().update(json.loads(os.environ.get("LAB_TEST_SETTINGS", "{}")))
