"""One engine input applied to a running game: the engine decides, its events become
rows and system posts, the clock follows the new phase, and the emails a phase change
calls for are queued; then, in a game that ends phases early, the deadline moves up to
the grace period once every living seat is done (W-2a).

Every input of the game goes through `input_apply` (the players' votes and actions, the
clock's deadlines and midnights, the moderator's acts), so the record replays exactly.
"""

from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import GameRuleError, RecordError, parse_input

from .. import deadlines, turns
from ..mapping import engine_state_to_change, remember_state, store_events
from ..models import Game, GameEvent, GameInput, Seat
from ..narration import said
from ..queue import GAME_ENDED, INPUT_APPLIED, PHASE_BEGAN, emit, member_told
from ..selectors.clock import locked_in_names
from .base import row_values, save_changed
from .posts import clock_notice_create, system_posts_create


def input_apply(
    *,
    game: Game,
    step: dict,
    seat: Seat | None = None,
    by=None,
    now=None,
    expected_phase: str | None = None,
):
    """Apply one engine input to a running game; returns its GameEvent rows, or None when
    `expected_phase` no longer holds (another worker got there first).

    Call it with the game row locked (services.base.game_locked); a refused input raises
    GameRuleError and writes nothing."""
    if game.status != Game.Status.RUNNING:
        raise GameRuleError(_("this game is not running"))
    if expected_phase is not None and game.phase != expected_phase:
        return None
    state = engine_state_to_change(game)
    try:
        inp = parse_input(state, step)
    except RecordError as e:
        raise GameRuleError(_("that is not a valid action")) from e
    now = now or timezone.now()
    phase = state.phase
    start = len(state.events)
    state.apply(inp)  # GameRuleError propagates: nothing has been written
    before = row_values(game)
    GameInput.objects.create(
        game=game, index=game.inputs_count, step=inp.to_step(), phase=phase, seat=seat, by=by
    )
    game.inputs_count += 1
    rows = store_events(game, state.events[start:], start)
    system_posts_create(game, rows)
    clock_follow(game, state, now)
    save_changed(game, before)
    remember_state(game, state)
    emit(INPUT_APPLIED, game=game, phase=phase, state=state, rows=rows)
    if game.status == Game.Status.FINISHED:
        emit(GAME_ENDED, game=game, first_event=start)
    elif game.phase != phase:
        _results_told(game, rows)
        emit(PHASE_BEGAN, game=game, phase=game.phase, first_event=start)
    else:
        phase_end_if_ready(game=game, state=state, now=now)
    return rows


def _results_told(game: Game, rows) -> None:
    """The players a phase's end told something of their own (a night's result, on their
    role page); a meeting's words are the room's, not a result. No query: store_events
    names each private row's members."""
    users = {
        user_id
        for r in rows
        if r.audience == GameEvent.Audience.SEATS and not r.meeting
        for user_id in r.recipient_user_ids
    }
    for user_id in sorted(users):
        member_told(user_id=user_id, game=game, kind="result")


def clock_follow(game: Game, state, now) -> None:
    """Deadlines follow the engine's phase: a new phase gets its full length (W-2), a night
    its midnight halfway (W-3) (games/deadlines.py); a finished game has none."""
    if state.over:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.winner = state.winner or ""
        game.phase = state.phase
        game.deadline_at = game.midnight_at = game.next_reminder_at = None
        game.prods_due_at = None  # no prods once the game is over
        game.paused_at = None
        return
    if state.phase != game.phase:
        game.phase = state.phase
        deadlines.open_phase(game, now)
    if state.night and state.midnight:
        game.midnight_at = None


# --- early end (W-2a; games/turns.py says who must be done) ------------------------------
def phase_end_if_ready(*, game: Game, state, now) -> bool:
    """W-2a: once every living seat is done, the deadline moves to the game's grace
    period from `now` (never later than it was), once a phase, and the public thread says
    so; the clock's sweep then ends the phase at that deadline. Nothing happens while the
    clock is paused (resuming checks again). Call it with the game row locked; `state` is
    the game's engine state. Returns whether the grace began now."""
    if not game.early_end or game.status != Game.Status.RUNNING or game.paused_at:
        return False
    if game.early_end_phase == game.phase or game.deadline_at is None:
        return False
    if not turns.can_lock_in_now(state) or not turns.all_living_done(state, locked_in_names(game)):
        return False
    game.early_end_phase = game.phase
    ends = now + game.early_end_grace
    if ends < game.deadline_at:
        deadlines.move_deadline(game, ends - game.deadline_at)  # keeps the reminders in step
    game.save(update_fields=["early_end_phase", "deadline_at", "midnight_at", "next_reminder_at"])
    clock_notice_create(
        game,
        said.meaning(said.EARLY_END, phase=game.phase, moment=game.deadline_at),
    )
    return True
