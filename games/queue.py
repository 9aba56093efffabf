"""The one seam between a write and its side effects.

A service says by name what should happen once its transaction commits
(`after_commit("game_role_emails", game.pk)`); games/tasks.py connects each name to its
Celery task when the app is ready (games/apps.py). So the services never import the
Celery layer, and a write that rolls back queues nothing.
"""

import logging
from collections.abc import Callable

from django.db import transaction

logger = logging.getLogger(__name__)

_receivers: dict[str, Callable[..., object]] = {}


def connect(name: str, receiver: Callable[..., object]) -> None:
    """Let `receiver(*args)` carry out what `after_commit(name, *args)` asks for."""
    _receivers[name] = receiver


def after_commit(name: str, *args) -> None:
    """Run the receiver connected to `name` once this transaction commits."""
    transaction.on_commit(lambda: _send(name, args))


def _send(name: str, args: tuple) -> None:
    receiver = _receivers.get(name)
    if receiver is None:
        logger.error("nothing is connected to %s; %r dropped", name, args)
        return
    try:
        receiver(*args)
    except Exception:  # logged: the write itself has committed (a broker may be down)
        logger.exception("could not queue %s%r", name, args)
