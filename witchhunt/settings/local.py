"""`make run`: a developer machine, no servers needed beyond what `make run` starts."""

from . import vapid
from .backends import celery_broker_folders
from .base import *  # noqa: F403
from .base import REDIS_URL, VAR_DIR
from .env import env

DEBUG = True
SECRET_KEY = env.get_str("SECRET_KEY", "django-insecure-local-development-only")
ALLOWED_HOSTS = env.get_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

DEMO_SEED_ALLOWED = True

# Web push works on a developer's machine with a pair made once and kept in var/.
if not WEBPUSH_VAPID_PRIVATE_KEY:  # noqa: F405
    WEBPUSH_VAPID_PRIVATE_KEY, WEBPUSH_VAPID_PUBLIC_KEY = vapid.local_pair(VAR_DIR)

# The SQLite file and the filesystem broker need their folders before first use.
VAR_DIR.mkdir(exist_ok=True)
if not REDIS_URL:
    for folder in celery_broker_folders(VAR_DIR).values():
        folder.mkdir(parents=True, exist_ok=True)
