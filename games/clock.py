"""The phase clock: the sweep that advances due games, and the moderator's controls.

The sweep (games.tasks.clock_sweep, every 30 s from Celery beat) loops over small units
of work. Each unit claims ONE due game in its own transaction, with its row locked
(`skip_locked`: a second worker takes the next game instead of queueing behind this
one), and hands it to the services with the phase it saw as `expected_phase`, which the
service checks again under the lock; so two workers, a duplicate beat or a retried task
never advance a phase twice. A game whose resolution raises is recorded on its row and
pushed back with exponential backoff; the sweep goes on with the other games.

The moderator's controls (pause, resume, extend, shorten) move the deadline and the
midnight together (W-3, games/deadlines.py) and say so in the public thread.
"""

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.engine import GameRuleError

from . import deadlines, emails, services
from .mapping import engine_state
from .models import Game

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
                resolve = services.phase_advance if ended else services.midnight_pass
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
    """Claim one game with a reminder due and send it (games/emails.py); returns
    REMINDED, FAILED, or None when none is due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _claim(_due(now).filter(next_reminder_at__lte=now).order_by("next_reminder_at"))
        if game is None:
            return None
        try:
            with transaction.atomic():
                emails.reminders_send(game=game, now=now)
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


# --- the moderator's controls ------------------------------------------------------------
MOVE_MIN = timedelta(minutes=1)
MOVE_MAX = timedelta(days=14)
# What the moderator's extend and shorten forms offer, in minutes.
MOVE_CHOICES = (15, 60, 180, 360, 720, 1440, 2880)


def _locked_for_moderator(game, by):
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not services.can_moderate(game, by):
        raise GameRuleError("only the game's moderator can change its clock")
    if game.status != Game.Status.RUNNING:
        raise GameRuleError("this game is not running")
    return game


def _when(at):
    return f"{at:%a %d %b, %H:%M} UTC"


def _length(delta):
    minutes = round(delta.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else ""]
    parts.append(f"{minutes} min" if minutes or not (days or hours) else "")
    return " ".join(p for p in parts if p)


def _check_move(delta):
    if not MOVE_MIN <= delta <= MOVE_MAX:
        raise GameRuleError("move the deadline by between 1 minute and 14 days")


def _pass_midnight_if_past(game, now):
    """W-3: a midpoint that is already past passes at once."""
    if game.midnight_at is not None and game.paused_at is None and game.midnight_at <= now:
        services.midnight_pass(game=game, expected_phase=game.phase, now=now)


@transaction.atomic
def clock_pause(*, game: Game, by, now=None) -> Game:
    """Stop the clock: the deadline and midnight wait (W-3: "a pause stops both")."""
    now = now or timezone.now()
    game = _locked_for_moderator(game, by)
    if game.paused_at is not None:
        raise GameRuleError("the clock is already paused")
    game.paused_at = now
    game.next_reminder_at = None
    game.save(update_fields=["paused_at", "next_reminder_at"])
    services.moderator_notice_create(
        game,
        by,
        f"The moderator paused the clock with {_length(game.deadline_at - now)} "
        f"left in {game.phase}.",
    )
    return game


@transaction.atomic
def clock_resume(*, game: Game, by, now=None) -> Game:
    """Start the clock again: the deadline and midnight move on by the pause's length."""
    now = now or timezone.now()
    game = _locked_for_moderator(game, by)
    if game.paused_at is None:
        raise GameRuleError("the clock is not paused")
    deadlines.resume(game, now)
    game.save(update_fields=["paused_at", "deadline_at", "midnight_at", "next_reminder_at"])
    services.moderator_notice_create(
        game, by, f"The moderator restarted the clock: {game.phase} ends {_when(game.deadline_at)}."
    )
    _pass_midnight_if_past(game, now)
    # Everyone may have said "done" while the clock stood still (W-2).
    game.refresh_from_db()
    services.phase_end_if_ready(game=game, state=engine_state(game), now=now)
    return game


@transaction.atomic
def clock_extend(*, game: Game, by, delta: timedelta, now=None) -> Game:
    """Move the deadline later by `delta` (midnight, if still to come, by half)."""
    now = now or timezone.now()
    _check_move(delta)
    game = _locked_for_moderator(game, by)
    deadlines.move_deadline(game, delta)
    game.save(update_fields=["deadline_at", "midnight_at", "next_reminder_at"])
    services.moderator_notice_create(
        game,
        by,
        f"The moderator extended {game.phase} by {_length(delta)}: it now ends "
        f"{_when(game.deadline_at)}.",
    )
    return game


@transaction.atomic
def clock_shorten(*, game: Game, by, delta: timedelta, now=None) -> Game:
    """Move the deadline earlier by `delta`; at least a minute must remain (to end the
    phase now, advance it). A midnight that this moves into the past passes at once."""
    now = now or timezone.now()
    _check_move(delta)
    game = _locked_for_moderator(game, by)
    left = deadlines.remaining(game, now)
    if delta > left - MOVE_MIN:
        raise GameRuleError(
            f"{game.phase} has only {_length(left)} left; to end it now, advance the game"
        )
    deadlines.move_deadline(game, -delta)
    game.save(update_fields=["deadline_at", "midnight_at", "next_reminder_at"])
    services.moderator_notice_create(
        game,
        by,
        f"The moderator shortened {game.phase} by {_length(delta)}: it now ends "
        f"{_when(game.deadline_at)}.",
    )
    _pass_midnight_if_past(game, now)
    return game


@transaction.atomic
def clock_retry(*, game: Game, by) -> Game:
    """The moderator's "retry now" for a game whose phase change failed: the next sweep
    tries it at once instead of waiting out the backoff (the failure stays recorded)."""
    game = _locked_for_moderator(game, by)
    game.clock_retry_at = None
    game.save(update_fields=["clock_retry_at"])
    return game
