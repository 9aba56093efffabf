"""pytest: SQLite in memory by default, PostgreSQL when DATABASE_URL names one."""

from .base import *  # noqa: F403

SECRET_KEY = "django-insecure-tests-only"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# Per-process and cleared between tests (tests/conftest.py), so allauth's rate limits never
# carry over from one test to the next. tests/site/test_backends.py covers the real caches.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"},
}

EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Tasks are not run eagerly: tests call task bodies directly. Anything a test does queue
# goes to an in-process broker rather than a real one.
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
CELERY_TASK_ALWAYS_EAGER = False

# Hashing dominates sign-up and login tests; strength is irrelevant here.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

DEMO_SEED_ALLOWED = True

# Web push: a pair derived from a constant, the same on every run; the stand-in push
# service of tests/games/push listens on 127.0.0.1.
from .vapid import derived_pair  # noqa: E402

WEBPUSH_VAPID_PRIVATE_KEY, WEBPUSH_VAPID_PUBLIC_KEY = derived_pair("witchhunt tests")
WEBPUSH_CONTACT = "mailto:tests@example.com"
WEBPUSH_ALLOW_PRIVATE_ENDPOINTS = True

# A lab job plays in this process unless a test asks for more (each would start its own).
LAB_WORKERS = 1
# No result backend (the in-memory broker): a lab job's task plays its games itself;
# tests/games/lab/test_lab_chunks.py runs chunk tasks on real workers over Redis.
CELERY_RESULT_BACKEND = None
LAB_CHUNK_TASKS = False

# The clock watch on ordinary requests is off: which request of a test ran it would move
# the query counts pinned in tests/games/test_queries.py. tests/site/test_health.py turns
# it on.
CLOCK_WATCH_SECONDS = None
