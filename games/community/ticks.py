"""The community rides the clock: each sweep claims the open games whose start date has
passed (their host told once, services/signups.py) and the running games whose silent
players are due a prod (services/prods.py), one game a unit, like the clock's own."""

import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from games.services import sweep

from .services.prods import prods_send
from .services.signups import signups_lapse

logger = logging.getLogger(__name__)

LAPSED = "signups lapsed"  # an open game's start date passed: its host was told
# A game's silent players looked at (services/prods.py): some were prodded, or none was due.
PRODDED, UNPRODDED = "prodded", "nobody to prod"


def signups_due(now):
    """Open games whose start date has passed and whose host has not been told, the
    earliest first (the partial index game_signups_close_idx), not waiting out a backoff."""
    return (
        Game.objects.filter(
            status=Game.Status.OPEN, signups_lapsed_at__isnull=True, signups_close_at__lte=now
        )
        .filter(Q(clock_retry_at__isnull=True) | Q(clock_retry_at__lte=now))
        .order_by("signups_close_at")
    )


def signups_tick(now=None) -> str | None:
    """Claim one open game whose start date has passed and tell its host, once
    (services/signups.py); returns LAPSED, FAILED, or None when none is due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = sweep.claim(signups_due(now))
        if game is None:
            return None
        try:
            with transaction.atomic():
                signups_lapse(game=game, now=now)
        except Exception as e:
            logger.exception("game %s: its lapsed sign-ups could not be handled", game.pk)
            sweep.record_failure(game, now, e)
            return sweep.FAILED
        if game.clock_failures or game.clock_retry_at:
            Game.objects.filter(pk=game.pk).update(
                clock_failures=0, clock_error="", clock_retry_at=None
            )
        return LAPSED


def prod_tick(now=None) -> str | None:
    """Claim one running game whose `prods_due_at` has come (not paused: a stopped clock
    prods nobody) and prod its silent players (services/prods.py), which sets the next
    `prods_due_at`; returns PRODDED, UNPRODDED, FAILED, or None when none is due."""
    now = now or timezone.now()
    with transaction.atomic():
        due = Game.objects.filter(
            status=Game.Status.RUNNING, prods_due_at__lte=now, paused_at__isnull=True
        ).order_by("prods_due_at")
        game = sweep.claim(due)
        if game is None:
            return None
        try:
            with transaction.atomic():
                sent = prods_send(game=game, now=now)
        except Exception:
            logger.exception("game %s: prods for %s failed", game.pk, game.phase)
            # Looked at again later, never in a loop: the rest of the sweep goes on.
            Game.objects.filter(pk=game.pk).update(prods_due_at=now + sweep.RETRY_MAX)
            return sweep.FAILED
        return PRODDED if sent else UNPRODDED


def ticks_run(*, now, counts, **_) -> bool:
    """SWEEP_TICKED: the lapsed sign-ups (a handful a day), then the prods; their outcomes
    added to `counts`; True when work is left for another sweep."""
    left = False
    for tick in (signups_tick, prod_tick):
        done, more = sweep.run_ticks(tick, now)
        for outcome, n in done.items():
            counts[outcome] = counts.get(outcome, 0) + n
        left = left or more
    return left
