"""The webhooks' fixtures: servers on loopback (servers.py), the sender allowed to reach
them (WEBHOOK_ALLOW_PRIVATE: loopback is private), destinations added as the desk adds
them, and a story told as the receivers tell it, in a game write's transaction."""

import pytest
from django.db import transaction

from games.webhooks import story
from games.webhooks.services import endpoints
from games.webhooks.story import Story
from tests.games.webhooks.servers import Server
from witchhunt.celery import app as celery_app


@pytest.fixture(autouse=True)
def webhook_settings(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    settings.WEBHOOK_TIMEOUT = 1
    settings.WEBHOOK_RETRY_SECONDS = 30
    settings.WEBHOOK_RETRY_MAX_SECONDS = 3600
    settings.WEBHOOK_DISABLE_AFTER = 3
    settings.WEBHOOK_DEBOUNCE_SECONDS = 30
    return settings


@pytest.fixture
def serve():
    """serve(kind, **options) -> a started Server, stopped after the test."""
    started = []

    def start(kind, **options):
        server = Server(kind, **options).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def eager_tasks():
    """Tasks queued on commit run at once, in this process (the worker's code path)."""
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def destination(game, server, kind=None, events=story.EVENTS, **options):
    """A destination of `game` posting to `server` (its secret given to a generic server)."""
    kind = kind or server.kind
    if kind == "discord":
        address = f"{server.base}/api/webhooks/123/s3cr3t-discord-token"
    elif kind == "matrix":
        address = server.base
        options.setdefault("room", "!room:example.org")
        options.setdefault("token", "syt_matrix_access_token_s3cr3t")
        server.secret = options["token"]
    else:
        address = f"{server.base}/hooks/s3cr3t-path-token"
    endpoint, secret = endpoints.endpoint_add(
        game=game, user=game.host, kind=kind, address=address, events=events, **options
    )
    if secret:
        server.secret = secret
    return endpoint


def tell(game, event="phase_began", **fields):
    """A story told in a write's transaction, as story30's receivers tell it."""
    title = f"{game.title} · Day 2 has begun" if game else "Site news"
    words = {"title": title, "text": "Elm was lynched.", **fields}
    with transaction.atomic():
        story.announce(game, event, lambda language: Story(event=event, **words))
