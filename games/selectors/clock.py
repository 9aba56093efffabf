"""The clock's controls, read for their pages (templates/clock/): in a game that ends
phases early, the player's "I'm done" state (W-2a) beside the game page's thread, and
how far the moderator's desk offers to move the deadline."""

from datetime import timedelta

from .. import turns
from ..deadlines import MOVE_CHOICES
from ..mapping import engine_state
from ..models import Game, PhaseLockIn, Seat
from ..narration import duration_words


def locked_in_names(game: Game) -> set[str]:
    """The seats that said "I'm done" in the game's current phase (W-2a)."""
    return set(
        PhaseLockIn.objects.filter(game=game, phase=game.phase).values_list("seat__name", flat=True)
    )


def early_end_panel(game: Game, seat: Seat | None) -> dict | None:
    """The "I'm done" panel (W-2a) of the viewer holding `seat` (the game page's
    `viewer_seat`, so not read again), or None when the game runs phases to their
    deadlines or the viewer has no seat.

    It counts the living seats not yet done, by day and by night, and nothing else: the
    early end never waits on, or counts, a dead or offstage seat, so the panel reads the
    same whatever the dead are (Angels or Demons) and whoever holds a last act."""
    if seat is None or not game.early_end or game.status != Game.Status.RUNNING:
        return None
    state = engine_state(game)
    locked = locked_in_names(game)
    waiting = len(turns.living_not_done(state, locked))
    began = game.early_end_phase == game.phase
    return {
        "open": turns.can_lock_in_now(state),
        "living": turns.may_lock_in(state, seat.name),
        "done": seat.name in locked,
        "waiting": waiting,
        # Every living seat is done: the deadline moved up to the grace (or the clock is
        # paused, and it moves when the clock restarts).
        "all_done": began or (waiting == 0 and turns.can_lock_in_now(state)),
        "began": began,
        "paused": game.paused_at is not None,
        "deadline": game.deadline_at,
        "grace": duration_words(game.early_end_grace),
    }


def clock_moves() -> list[tuple[int, str]]:
    """What the moderator's extend and shorten forms offer: (minutes, in words)."""
    return [(m, duration_words(timedelta(minutes=m))) for m in MOVE_CHOICES]
