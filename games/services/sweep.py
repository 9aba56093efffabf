"""The phase clock's sweep: it advances due games, passes due midnights and sends due
reminders.

The sweep (games.tasks.clock_sweep, every 30 s from Celery beat) loops over small units
of work. Each unit claims ONE due game in its own transaction, with its row locked
(`skip_locked`: a second worker takes the next game instead of queueing behind this
one), and hands it to the services with the phase it saw as `expected_phase`, which the
service checks again under the lock; so two workers, a duplicate beat or a retried task
never advance a phase twice. A game whose resolution raises is recorded on its row and
pushed back with exponential backoff; the sweep goes on with the other games.
"""

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Game
from .emails import reminders_send
from .phases import midnight_pass, phase_advance

logger = logging.getLogger(__name__)

# Backoff after a failed resolution: 1, 2, 4, ... minutes, at most an hour apart.
RETRY_FIRST = timedelta(minutes=1)
RETRY_MAX = timedelta(hours=1)
# One sweep stops after this long or this many units; the next beat carries on, so a
# backlog never makes one task run for minutes (and beat expires sweeps that queue up).
SWEEP_SECONDS = 20.0
SWEEP_UNITS = 5000

ADVANCED, MIDNIGHT, FAILED, REMINDED = "advanced", "midnight", "failed", "reminded"
# The phase had already moved on: only possible without row locks (SQLite), where two
# workers can claim the same game; the service's expected_phase made this one a no-op.
SKIPPED = "skipped"


def _due(now):
    return Game.objects.filter(
        Q(clock_retry_at__isnull=True) | Q(clock_retry_at__lte=now),
        status=Game.Status.RUNNING,
        paused_at__isnull=True,
    )


def _claim(queryset):
    # skip_locked: a game another worker is resolving is left to it (PostgreSQL; SQLite
    # has no row locks and serialises writers instead).
    return queryset.select_for_update(skip_locked=True).first()


def backoff(failures: int) -> timedelta:
    return min(RETRY_FIRST * 2 ** max(failures - 1, 0), RETRY_MAX)


def _record_failure(game, now, error):
    failures = game.clock_failures + 1
    Game.objects.filter(pk=game.pk).update(
        clock_failures=failures,
        clock_error=f"{now:%Y-%m-%d %H:%M:%S} UTC in {game.phase}: {error!r}"[:2000],
        clock_retry_at=now + backoff(failures),
    )


def clock_tick(now=None) -> str | None:
    """Claim one game whose deadline or midnight has passed and resolve it.

    Returns ADVANCED (the phase ended: the night resolved or the day ended), MIDNIGHT
    (W-3's checkpoint passed), FAILED (recorded and pushed back), SKIPPED, or None when
    no game is due. Paused games are never due; a game in backoff is due again at clock_retry_at."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _claim(
            _due(now)
            .filter(Q(deadline_at__lte=now) | Q(midnight_at__lte=now))
            .order_by("deadline_at")
        )
        if game is None:
            return None
        # The night's deadline passes midnight first (W-3, W-11a): one input does both.
        ended = game.deadline_at is not None and game.deadline_at <= now
        try:
            with transaction.atomic():  # a savepoint: a failure undoes only this
                resolve = phase_advance if ended else midnight_pass
                rows = resolve(game=game, expected_phase=game.phase, now=now)
        except Exception as e:  # any failure: the game is recorded, the sweep goes on
            logger.exception("game %s: the clock could not resolve %s", game.pk, game.phase)
            _record_failure(game, now, e)
            return FAILED
        if game.clock_failures or game.clock_retry_at:
            Game.objects.filter(pk=game.pk).update(
                clock_failures=0, clock_error="", clock_retry_at=None
            )
        if rows is None:
            return SKIPPED
        return ADVANCED if ended else MIDNIGHT


def reminder_tick(now=None) -> str | None:
    """Claim one game with a reminder due and send it (services/emails.py); returns
    REMINDED, FAILED, or None when none is due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _claim(_due(now).filter(next_reminder_at__lte=now).order_by("next_reminder_at"))
        if game is None:
            return None
        try:
            with transaction.atomic():
                reminders_send(game=game, now=now)
        except Exception as e:
            logger.exception("game %s: reminders for %s failed", game.pk, game.phase)
            _record_failure(game, now, e)  # clock_retry_at holds the reminders back too
            return FAILED
        return REMINDED


def clock_sweep(now=None) -> dict:
    """Run the units until nothing is due (or the time budget is spent); returns how many
    of each outcome. `now` is fixed by tests; the beat passes nothing (the real time)."""
    counts = {}
    started = time.monotonic()
    for tick in (clock_tick, reminder_tick):
        for _ in range(SWEEP_UNITS):
            if time.monotonic() - started > SWEEP_SECONDS:
                break
            outcome = tick(now)
            if outcome is None:
                break
            counts[outcome] = counts.get(outcome, 0) + 1
    if counts:
        logger.info("clock sweep: %s", counts)
    return counts
