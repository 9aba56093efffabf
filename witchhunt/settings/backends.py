"""Cache and Celery broker settings, derived from REDIS_URL.

With Redis configured both use it. Without it (a developer machine) both fall back to files
under var/, which runserver and the Celery worker share — unlike an in-process cache, so
allauth's rate limits hold across processes, and no broker server needs to be running.
"""

from __future__ import annotations

from pathlib import Path


def cache_settings(redis_url: str | None, var_dir: Path) -> dict:
    # "pages": the game page's cached parts (games/views/fragments.py), apart so that they
    # can be cleared (or moved to a Redis of their own) without the sessions and states.
    if redis_url:
        # Shares the broker's Redis. Every cache key gets a timeout, so the cache stays
        # bounded even though Redis runs with noeviction (which the broker needs).
        # An unreachable Redis is a miss, not an error (witchhunt/cache.py).
        backend = {"BACKEND": "witchhunt.cache.TolerantRedisCache", "LOCATION": redis_url}
        pages = backend
    else:
        files = "django.core.cache.backends.filebased.FileBasedCache"
        backend = {"BACKEND": files, "LOCATION": str(var_dir / "cache")}
        pages = {"BACKEND": files, "LOCATION": str(var_dir / "page-cache")}
    return {
        "default": {**backend, "KEY_PREFIX": "witchhunt"},
        "pages": {**pages, "KEY_PREFIX": "witchhunt-pages"},
    }


def celery_broker_folders(var_dir: Path) -> dict[str, Path]:
    """The filesystem transport's folders; they must exist before a worker starts."""
    root = var_dir / "celery"
    return {
        "data_folder_in": root / "queue",
        "data_folder_out": root / "queue",
        "processed_folder": root / "processed",
        "control_folder": root / "control",
    }


def celery_broker_settings(redis_url: str | None, var_dir: Path) -> tuple[str, dict]:
    """(CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS)."""
    if redis_url:
        return redis_url, {}
    folders = celery_broker_folders(var_dir)
    # A host name keeps kombu from warning "No hostname was supplied" on every connection.
    return "filesystem://localhost/", {
        **{name: str(path) for name, path in folders.items()},
        "store_processed": False,
    }
