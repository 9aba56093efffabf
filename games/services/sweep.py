"""The phase clock's sweeps: the clock's advances due games and passes due midnights;
the reminders' sends due reminders.

Each sweep (games/tasks.py: the clock's every 10 s on the `clock` queue, the reminders'
every 30 s on the `email` queue, from Celery beat) loops over small units of work. Each
unit claims ONE due game in its own transaction, with its row locked (`skip_locked`: a
second worker takes the next game instead of queueing behind this one), and hands it to
the services with the phase it saw as `expected_phase`, which the service checks again
under the lock; so two workers, a duplicate beat or a retried task never advance a phase
twice. A game whose resolution raises is recorded on its row and pushed back with
exponential backoff; the sweep goes on with the other games.

A worker that dies mid-resolution (`kill -9`, a lost machine) resolved the night exactly
once or not at all: the claim, the input, its events and its posts are one transaction,
which PostgreSQL rolls back when its client is gone, releasing the row, and the night's
emails are queued only once it commits (then recorded once a seat, EmailSent). The game
is still due, so the next sweep claims it and resolves it once; nothing marks a game as
taken outside that transaction, so nothing is left to expire
(tests/games/test_worker_killed.py).

Due means `status = running AND next_due_at <= now` (Game.next_due_at, which the database
derives), on one index: idle games cost the sweep nothing. A burst (many games sharing
one deadline) is shared out: the beat's clock sweep asks for more sweeps, which the other
clock workers take, and a sweep that spends its time budget asks for one more to carry on
at once instead of at the next beat.

Once its due games are done, the sweep announces SWEEP_TICKED (games/queue.py): the
capabilities the clock drives (the community's lapsed sign-ups and prods) claim their own
games the same way, with `claim`, `run_ticks` and `record_failure`. Then the beat's sweep
writes the clock's heartbeat (services/clock_watch.py), which the web side watches.
"""

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Game
from ..queue import SWEEP_TICKED, after_commit, emit
from .clock_watch import heartbeat_beat
from .emails import reminders_decide, reminders_write
from .phases import midnight_pass, phase_advance

logger = logging.getLogger(__name__)

# Backoff after a failed resolution: 1, 2, 4, ... minutes, at most an hour apart.
RETRY_FIRST = timedelta(minutes=1)
RETRY_MAX = timedelta(hours=1)
# One sweep stops after this long or this many units and, if work is left, asks for
# another (the clock) or leaves it to the next beat (the reminders), so a backlog never
# makes one task run for minutes.
SWEEP_SECONDS = 20.0
SWEEP_UNITS = 5000
# A burst: one more clock sweep for every FAN_OUT_GAMES due games, at most FAN_OUT_MAX
# more; each runs until nothing is due, so the surplus finds nothing and ends at once.
FAN_OUT_GAMES = 50
FAN_OUT_MAX = 8

ADVANCED, MIDNIGHT, FAILED, REMINDED = "advanced", "midnight", "failed", "reminded"
# The phase had already moved on: only possible without row locks (SQLite), where two
# workers can claim the same game; the service's expected_phase made this one a no-op.
SKIPPED = "skipped"


def due(now):
    """The running games due to the sweep at `now` (paused ones and those waiting out a
    backoff are not: Game.next_due_at says so), the earliest first."""
    return Game.objects.filter(status=Game.Status.RUNNING, next_due_at__lte=now).order_by(
        "next_due_at"
    )


def _clock_due(now):
    """The due games whose deadline or midnight has passed (not only a reminder)."""
    return due(now).filter(Q(deadline_at__lte=now) | Q(midnight_at__lte=now))


def claim(queryset):
    # skip_locked: a game another worker is resolving is left to it (PostgreSQL; SQLite
    # has no row locks and serialises writers instead).
    return queryset.select_for_update(skip_locked=True).first()


def backoff(failures: int) -> timedelta:
    return min(RETRY_FIRST * 2 ** max(failures - 1, 0), RETRY_MAX)


def record_failure(game, now, error):
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
        game = claim(_clock_due(now))
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
            record_failure(game, now, e)
            return FAILED
        if game.clock_failures or game.clock_retry_at:
            Game.objects.filter(pk=game.pk).update(
                clock_failures=0, clock_error="", clock_retry_at=None
            )
        if rows is None:
            return SKIPPED
        return ADVANCED if ended else MIDNIGHT


def reminder_tick(now=None) -> str | None:
    """Claim one game with a reminder due and send it (services/emails.py): decided under
    the claim, rendered and written once the claim has let the game row go. Returns
    REMINDED, FAILED, or None when none is due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = claim(due(now).filter(next_reminder_at__lte=now))
        if game is None:
            return None
        try:
            with transaction.atomic():
                decided = reminders_decide(game=game, now=now)
        except Exception as e:
            return _reminders_failed(game, now, e)
    if decided is not None:
        try:
            reminders_write(decided, now=now)
        except Exception as e:
            return _reminders_failed(game, now, e)
    return REMINDED


def _reminders_failed(game, now, error) -> str:
    logger.exception("game %s: reminders for %s failed", game.pk, game.phase)
    record_failure(game, now, error)  # clock_retry_at holds the reminders back too
    return FAILED


def run_ticks(tick, now) -> tuple[dict, bool]:
    """Run `tick` until nothing is due or the budget is spent; returns how many of each
    outcome, and whether work may be left (the budget ran out first)."""
    counts = {}
    started = time.monotonic()
    for _ in range(SWEEP_UNITS):
        if time.monotonic() - started > SWEEP_SECONDS:
            return counts, True
        outcome = tick(now)
        if outcome is None:
            return counts, False
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts, True


def fan_out(now) -> int:
    """How many more clock sweeps a burst of due games wants (0 for a handful)."""
    enough = FAN_OUT_GAMES * (FAN_OUT_MAX + 1)
    return min(FAN_OUT_MAX, _clock_due(now).values("pk")[:enough].count() // FAN_OUT_GAMES)


def clock_sweep(now=None, *, share=True) -> dict:
    """Advance due games and pass due midnights until none is left; returns how many of
    each outcome. The beat's sweep (`share`) first asks for more sweeps when a burst is
    due, so that every clock worker takes part; any sweep that spends its budget asks for
    one more. `now` is fixed by tests; the workers pass nothing (the real time)."""
    if share:
        for _ in range(fan_out(now or timezone.now())):
            after_commit("clock_sweep_more")
    counts, left = run_ticks(clock_tick, now)
    # Then what else the clock drives (the community's lapsed sign-ups and prods): each
    # receiver adds its outcomes to `counts` and says whether it left work undone.
    if any(emit(SWEEP_TICKED, now=now, counts=counts)) or left:
        after_commit("clock_sweep_more")
    if counts:
        logger.info("clock sweep: %s", counts)
    if share:
        # The heartbeat (services/clock_watch.py): the beat's sweep ran to its end. Last,
        # so that a sweep that fails every time leaves the heartbeat to go stale. The real
        # time, not `now`: it says when the clock ran, whatever moment a test resolves at.
        heartbeat_beat()
    return counts


def reminder_sweep(now=None) -> dict:
    """Send due reminders until none is left (or the budget is spent: the next beat goes
    on); returns how many of each outcome. Runs on the email queue, apart from the clock."""
    counts, _ = run_ticks(reminder_tick, now)
    if counts:
        logger.info("reminder sweep: %s", counts)
    return counts
