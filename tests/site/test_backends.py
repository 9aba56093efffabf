"""Cache and broker settings: the files `make run` uses, and Redis when REDIS_URL is set."""

import os

import pytest
from django.conf import settings
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache
from kombu import Connection

from witchhunt.celery import app
from witchhunt.settings.backends import (
    cache_settings,
    celery_broker_folders,
    celery_broker_settings,
)

REDIS_URL = os.environ.get("REDIS_URL")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set")


def _round_trip(url: str, options: dict, payload: dict) -> dict:
    with Connection(url, transport_options=options) as connection:
        queue = connection.SimpleQueue("witchhunt-test")
        try:
            queue.put(payload)
            message = queue.get(timeout=5)
            message.ack()
        finally:
            queue.close()
    return message.payload


def _two_clients(backend, config: dict):
    """Two independent cache clients, as two processes (runserver, the worker) would have."""
    return [backend(config["LOCATION"], {"KEY_PREFIX": config["KEY_PREFIX"]}) for _ in range(2)]


def test_celery_app_takes_its_configuration_from_django_settings():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL == "memory://"
    assert app.conf.task_always_eager is False
    assert app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE


def test_cache_and_broker_use_redis_when_configured(tmp_path):
    url = "redis://redis:6379/0"
    assert cache_settings(url, tmp_path)["default"]["BACKEND"].endswith("RedisCache")
    assert celery_broker_settings(url, tmp_path) == (url, {})


def test_cache_and_broker_fall_back_to_files_without_redis(tmp_path):
    assert cache_settings(None, tmp_path)["default"]["LOCATION"] == str(tmp_path / "cache")
    broker_url, options = celery_broker_settings(None, tmp_path)
    assert broker_url == "filesystem://localhost/"
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "celery/queue")


def test_file_cache_is_shared_between_clients(tmp_path):
    writer, reader = _two_clients(FileBasedCache, cache_settings(None, tmp_path)["default"])
    writer.set("witchhunt-test", "shared", timeout=30)
    assert reader.get("witchhunt-test") == "shared"


def test_filesystem_broker_of_make_run_carries_a_message(tmp_path):
    for folder in celery_broker_folders(tmp_path).values():
        folder.mkdir(parents=True, exist_ok=True)
    url, options = celery_broker_settings(None, tmp_path)
    assert _round_trip(url, options, {"game": 1}) == {"game": 1}


@needs_redis
def test_redis_broker_carries_a_message():
    url, options = celery_broker_settings(REDIS_URL, settings.VAR_DIR)
    assert _round_trip(url, options, {"game": 2}) == {"game": 2}


@needs_redis
def test_redis_cache_is_shared_between_clients():
    config = cache_settings(REDIS_URL, settings.VAR_DIR)["default"]
    writer, reader = _two_clients(RedisCache, config)
    writer.set("witchhunt-test", "shared", timeout=30)
    try:
        assert reader.get("witchhunt-test") == "shared"
    finally:
        writer.delete("witchhunt-test")
