"""Clock arithmetic on a Game row: a new phase's deadline and midnight, moving them, and
when the next reminder is due. No queries and no saves: the callers (services.py and
clock.py) hold the game row locked and save it.

Midnight stays halfway through the phase's running time (W-3: "it moves when the
deadline moves"): moving the deadline by d moves a midnight still to come by d / 2, and
a pause stops both, so resuming moves both by the time spent paused.
"""

from datetime import timedelta

from .models import Game


def phase_length(game) -> timedelta:
    return game.night_length if game.is_night else game.day_length


def clock_now(game, now):
    """The clock's own time: a paused clock stands at the moment it was paused."""
    return game.paused_at or now


def open_phase(game, now) -> None:
    """A new phase gets its full length (W-2) and a night its midnight halfway (W-3).
    A phase that opens while the clock is paused (a lynch during a pause) starts its time
    when the clock resumes."""
    length = phase_length(game)
    start = clock_now(game, now)
    game.phase_started_at = now
    game.deadline_at = start + length
    game.midnight_at = start + length / 2 if game.is_night else None
    game.reminders_sent = []
    game.next_reminder_at = next_reminder_at(game)
    game.prods_due_at = prods_first_due(game)


def prods_first_due(game):
    """When the prod sweep first looks at a phase's silent players (services/prods.py):
    `prod_after` into a day phase of a game with a prod rule; never by night."""
    if game.is_night or not game.prod_after or game.phase_started_at is None:
        return None
    return game.phase_started_at + game.prod_after


# What the moderator's extend and shorten forms offer, in minutes (services/clock.py bounds
# any move by MOVE_MIN and MOVE_MAX).
MOVE_CHOICES = (15, 60, 180, 360, 720, 1440, 2880)


def move_deadline(game, delta: timedelta) -> None:
    """Extend (delta > 0) or shorten (delta < 0) the phase; midnight moves half as far."""
    game.deadline_at += delta
    if game.midnight_at is not None:
        game.midnight_at += delta / 2
    game.next_reminder_at = next_reminder_at(game)


def resume(game, now) -> None:
    """Both deadline and midnight move on by the time the clock stood still."""
    gap = now - game.paused_at
    game.paused_at = None
    game.clock_resumed_at = now
    game.deadline_at += gap
    if game.midnight_at is not None:
        game.midnight_at += gap
    game.next_reminder_at = next_reminder_at(game)


def remaining(game, now) -> timedelta | None:
    if game.deadline_at is None:
        return None
    return game.deadline_at - clock_now(game, now)


# --- reminders -------------------------------------------------------------------------
def reminder_points(game) -> list[int]:
    """The game's reminder times (hours before the deadline) that fit in this phase,
    largest first. A reminder as long as the phase itself would arrive with the phase
    change, whose email already names the deadline."""
    length = phase_length(game)
    return sorted(
        (h for h in game.reminder_hours or () if timedelta(hours=h) < length), reverse=True
    )


def _pending(game) -> list[int]:
    done = set(game.reminders_sent or ())
    return [h for h in reminder_points(game) if h not in done]


def next_reminder_at(game):
    """When the sweep should next look at this game's reminders; None when none is left
    (or the game is paused, finished or has no deadline)."""
    if game.deadline_at is None or game.paused_at is not None or game.status != Game.Status.RUNNING:
        return None
    pending = _pending(game)
    return game.deadline_at - timedelta(hours=pending[0]) if pending else None


def due_reminders(game, now) -> list[int]:
    """Pending reminder times that have come due, largest first."""
    if game.deadline_at is None:
        return []
    return [h for h in _pending(game) if game.deadline_at - timedelta(hours=h) <= now]
