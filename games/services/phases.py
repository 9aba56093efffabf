"""Ending phases: the deadline's (or the moderator's "advance now"), midnight's
checkpoint (W-3), and a living seat saying it is done, for good, so that the deadline
may move up to the game's grace period (W-2a's early end)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import GameRuleError

from .. import turns
from ..mapping import engine_state
from ..models import Game, PhaseLockIn
from ..narration import phase_label
from ..permissions import can_moderate
from .base import game_locked, seat_of
from .inputs import input_apply, phase_end_if_ready


def advance_refusal(game: Game, expected_phase: str) -> str | None:
    """Why "advance now" for `expected_phase` (the phase its form was rendered for) must
    change nothing because the game has moved on; None while that phase is still on."""
    if game.status == Game.Status.RUNNING and game.phase == expected_phase:
        return None
    if game.status == Game.Status.FINISHED:
        now = _("the game is over")
    elif game.status == Game.Status.RUNNING:
        now = _("the game is now in {phase}").format(phase=phase_label(game.phase))
    else:
        return _("this game is not running")
    return _("{phase} has already ended: {now}. Nothing was changed.").format(
        phase=phase_label(expected_phase), now=now
    )


@transaction.atomic
def phase_advance(*, game: Game, by=None, expected_phase: str | None = None, now=None):
    """End the current phase now (its deadline passed, or the moderator's "advance now").

    `expected_phase` is the phase the caller saw: the clock's sweep passes the one it
    claimed, a moderator's form the one it was rendered for. When the game has moved on,
    the sweep's call is a quiet no-op (None: a rival worker got there first) and the
    moderator's is refused in words (GameRuleError), so that a double click or a click
    after the sweep never ends a second phase."""
    game = game_locked(game)
    if by is not None and not can_moderate(game, by):
        raise GameRuleError(_("only the game's moderator can advance the game"))
    if by is not None and expected_phase is not None:
        refusal = advance_refusal(game, expected_phase)
        if refusal:
            raise GameRuleError(refusal)
    return input_apply(
        game=game, step={"advance": "phase"}, by=by, now=now, expected_phase=expected_phase
    )


@transaction.atomic
def midnight_pass(*, game: Game, expected_phase: str | None = None, now=None):
    """W-3: the night's midpoint passes (the votes that lock at midnight lock)."""
    game = game_locked(game)
    return input_apply(
        game=game, step={"advance": "midnight"}, now=now, expected_phase=expected_phase
    )


@transaction.atomic
def phase_lock_in(*, game: Game, user, now=None) -> bool:
    """W-2a: a living seat says it is done for this phase, for good ("done" cannot be
    taken back); its votes and actions stay as they are and can still change until the
    phase ends. Returns whether that made every living seat done, so that the grace
    period began (the deadline moved up, services.inputs.phase_end_if_ready)."""
    game = game_locked(game)
    if not game.early_end:
        raise GameRuleError(_("this game's phases run to their deadlines"))
    if game.status != Game.Status.RUNNING:
        raise GameRuleError(_("this game is not running"))
    seat = seat_of(game, user)
    state = engine_state(game)
    refusal = turns.lock_in_refusal(state, seat.name)
    if refusal:
        raise GameRuleError(refusal)
    _lock_in, created = PhaseLockIn.objects.get_or_create(game=game, seat=seat, phase=game.phase)
    if not created:
        raise GameRuleError(_("you have already said you are done in this phase"))
    return phase_end_if_ready(game=game, state=state, now=now or timezone.now())
