"""A deadline near, told from the clock: each sweep (SWEEP_TICKED) looks for the running
games whose deadline comes within settings.WEBHOOK_DEADLINE_NEAR and tells each once per
game, phase and deadline (the story's `once`: a deadline moved later or earlier is near
again). A paused clock's deadline is not near: it does not run.

The story's `once` is what keeps it to one delivery a destination; the cache only spares
the sweeps after the first a game's announcement every 10 s (a miss, Redis down, costs an
announcement that `once` refuses). The key is set once the announcement has committed, so
one that rolled back is made again by the next sweep.

The deadline is the game page's, public: the story says when the phase ends, never who
has not acted yet (that moves with hidden inputs).
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.models import Game

from . import story, tell

logger = logging.getLogger(__name__)

TOLD = "webhooks:near:"  # the cache's key of a deadline told, before its `once`


def near_games(now):
    """The running games whose deadline is after `now` and within the setting of it."""
    within = getattr(settings, "WEBHOOK_DEADLINE_NEAR", timedelta(hours=1))
    return Game.objects.filter(
        status=Game.Status.RUNNING,
        paused_at__isnull=True,
        deadline_at__gt=now,
        deadline_at__lte=now + within,
    ).order_by("deadline_at")


def _remember(key: str, deadline_at) -> None:
    """Until a minute past the deadline (from when the announcement committed)."""
    cache.set(key, 1, max((deadline_at - timezone.now()).total_seconds(), 0) + 60)


def deadlines_near(*, now=None, **_) -> bool:
    """SWEEP_TICKED: announce each near deadline not yet told; never leaves work undone.
    It adds nothing to the sweep's counts: whether a deadline was told depends on whom
    the story reached (the deliveries keep that), not on the clock's work."""
    now = now or timezone.now()
    for game in near_games(now):
        key = TOLD + tell.deadline_once(game).replace(" ", "_")  # a cache key has no space
        if cache.get(key):
            continue
        try:
            with transaction.atomic():
                story.announce(game, "deadline_near", tell.deadline_near(game, now))
                transaction.on_commit(lambda key=key, at=game.deadline_at: _remember(key, at))
        except Exception:  # one game's story never stops the clock: the next sweep tries again
            logger.exception("game %s: its near deadline could not be told", game.pk)
    return False
