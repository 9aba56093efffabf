"""The moderator's clock controls: pause, resume, extend, shorten, set the deadline to a
moment, and retry after a failure. They move the deadline and the midnight together (W-3,
games/deadlines.py) and say so in the public thread, in one post a change, its moments
shown in each reader's zone (games/post_times.py)."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import GameRuleError

from .. import deadlines
from ..mapping import engine_state
from ..models import Game
from ..narration import duration_words, phase_label, said
from .base import NOT_MODERATOR_CLOCK, game_moderated
from .inputs import phase_end_if_ready
from .phases import midnight_pass
from .posts import moderator_notice_create

MOVE_MIN = timedelta(minutes=1)
MOVE_MAX = timedelta(days=14)


def _check_move(delta):
    if not MOVE_MIN <= delta <= MOVE_MAX:
        raise GameRuleError(_("move the deadline by between 1 minute and 14 days"))


def _check_shown(game, shown):
    """A move of the deadline the page showed: a double click, or a second moderator's
    move in between, finds it moved and changes nothing."""
    if shown is not None and shown != game.deadline_at:
        raise GameRuleError(
            _(
                "the deadline has moved since this page was loaded: nothing was changed. "
                "Reload the page to see it."
            )
        )


def _pass_midnight_if_past(game, now):
    """W-3: a midpoint that is already past passes at once."""
    if game.midnight_at is not None and game.paused_at is None and game.midnight_at <= now:
        midnight_pass(game=game, expected_phase=game.phase, now=now)


@transaction.atomic
def clock_pause(*, game: Game, by, now=None) -> Game:
    """Stop the clock: the deadline and midnight wait (W-3: "a pause stops both")."""
    now = now or timezone.now()
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CLOCK)
    if game.paused_at is not None:
        raise GameRuleError(_("the clock is already paused"))
    game.paused_at = now
    game.next_reminder_at = None
    game.save(update_fields=["paused_at", "next_reminder_at"])
    moderator_notice_create(
        game,
        by,
        said.meaning(said.CLOCK_PAUSED, left=game.deadline_at - now, phase=game.phase),
    )
    return game


@transaction.atomic
def clock_resume(*, game: Game, by, now=None) -> Game:
    """Start the clock again: the deadline and midnight move on by the pause's length."""
    now = now or timezone.now()
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CLOCK)
    if game.paused_at is None:
        raise GameRuleError(_("the clock is not paused"))
    deadlines.resume(game, now)
    game.save(
        update_fields=[
            "paused_at",
            "clock_resumed_at",
            "deadline_at",
            "midnight_at",
            "next_reminder_at",
        ]
    )
    moderator_notice_create(
        game,
        by,
        said.meaning(said.CLOCK_RESUMED, phase=game.phase, moment=game.deadline_at),
    )
    _pass_midnight_if_past(game, now)
    # Every living player may have said "done" while the clock stood still (W-2a).
    game.refresh_from_db()
    phase_end_if_ready(game=game, state=engine_state(game), now=now)
    return game


@transaction.atomic
def clock_extend(*, game: Game, by, delta: timedelta, shown=None, now=None) -> Game:
    """Move the deadline later by `delta` (midnight, if still to come, by half); `shown`
    is the deadline the moderator saw, if the form said."""
    now = now or timezone.now()
    _check_move(delta)
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CLOCK)
    _check_shown(game, shown)
    deadlines.move_deadline(game, delta)
    game.save(update_fields=["deadline_at", "midnight_at", "next_reminder_at"])
    moderator_notice_create(
        game,
        by,
        said.meaning(said.CLOCK_EXTENDED, phase=game.phase, delta=delta, moment=game.deadline_at),
    )
    return game


@transaction.atomic
def clock_shorten(*, game: Game, by, delta: timedelta, shown=None, now=None) -> Game:
    """Move the deadline earlier by `delta`; at least a minute must remain (to end the
    phase now, advance it). A midnight that this moves into the past passes at once."""
    now = now or timezone.now()
    _check_move(delta)
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CLOCK)
    _check_shown(game, shown)
    left = deadlines.remaining(game, now)
    if delta > left - MOVE_MIN:
        raise GameRuleError(
            _("%(phase)s has only %(left)s left; to end it now, advance the game")
            % {"phase": phase_label(game.phase), "left": duration_words(left)}
        )
    deadlines.move_deadline(game, -delta)
    game.save(update_fields=["deadline_at", "midnight_at", "next_reminder_at"])
    moderator_notice_create(
        game,
        by,
        said.meaning(said.CLOCK_SHORTENED, phase=game.phase, delta=delta, moment=game.deadline_at),
    )
    _pass_midnight_if_past(game, now)
    return game


@transaction.atomic
def deadline_set(*, game: Game, by, at, shown=None, now=None) -> Game:
    """Set the deadline to the moment `at` (aware), between a minute and 14 days from now;
    `shown` is the deadline the moderator saw. A move like extend's and shorten's (midnight,
    if still to come, moves half as far, so it stays halfway: W-3), and a midnight it moves
    into the past passes at once. A paused clock is resumed first: the pause would move the
    moment the moderator chose."""
    now = now or timezone.now()
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CLOCK)
    _check_shown(game, shown)
    if game.paused_at is not None:
        raise GameRuleError(
            _(
                "the clock is paused: resume it before setting the deadline to a time "
                "(or extend or shorten it)"
            )
        )
    if at < now + MOVE_MIN:
        raise GameRuleError(_("choose a deadline at least a minute from now"))
    if at > now + MOVE_MAX:
        raise GameRuleError(_("choose a deadline at most 14 days from now"))
    delta = at - game.deadline_at
    if abs(delta) < MOVE_MIN:
        raise GameRuleError(_("that is the deadline already: nothing was changed"))
    deadlines.move_deadline(game, delta)
    game.save(update_fields=["deadline_at", "midnight_at", "next_reminder_at"])
    moderator_notice_create(
        game,
        by,
        said.meaning(said.CLOCK_SET, phase=game.phase, moment=game.deadline_at),
    )
    _pass_midnight_if_past(game, now)
    return game


@transaction.atomic
def clock_retry(*, game: Game, by) -> Game:
    """The moderator's "retry now" for a game whose phase change failed: the next sweep
    tries it at once instead of waiting out the backoff (the failure stays recorded)."""
    game = game_moderated(game, by, refusal=NOT_MODERATOR_CLOCK)
    game.clock_retry_at = None
    game.save(update_fields=["clock_retry_at"])
    return game
