"""The clock's controls: the moderator's pause, resume, extend, shorten and exact
deadline (a date and time in the moderator's zone), and a
player's "I'm done for this phase" (W-2a's early end, games/turns.py; "done" cannot be
taken back, so there is no "not done" control).

Each is a POST with CSRF and one service call (GET is 405); a refusal shows its reason
and changes nothing. The controls themselves are templates/clock/: the moderator's on the
desk (what they offer: selectors/desk.py `DeskPage.clock_moves`), the player's "I'm done"
on the game page (selectors/clock.py `early_end_panel`).
"""

from datetime import datetime, timedelta

from django.contrib.auth.decorators import login_required
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import services
from games.deadlines import MOVE_CHOICES
from games.engine import GameRuleError
from games.services.clock import deadline_set
from games.wall_time import zoned_moment

from .feedback import run_and_redirect


def _move(request):
    try:
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        minutes = 0
    if minutes not in MOVE_CHOICES:
        raise GameRuleError(gettext("choose how far to move the deadline"))
    return timedelta(minutes=minutes)


def _shown_deadline(request):
    """The deadline the form was rendered with: a second click of the same form finds it
    moved and changes nothing."""
    try:
        return datetime.fromisoformat(request.POST.get("deadline", ""))
    except ValueError:
        raise GameRuleError(
            gettext("this form does not say which deadline it moves: reload the page and try again")
        ) from None


def _deadline_at(request):
    """The form's date and time (an HTML datetime-local value) in the viewer's zone, which
    the middleware activated; a wall time the clocks skip or pass twice is refused."""
    zone = timezone.get_current_timezone()
    try:
        wall = datetime.fromisoformat(request.POST.get("at", "").strip())
    except ValueError:
        raise GameRuleError(gettext("give the new deadline as a date and a time")) from None
    return zoned_moment(wall, zone, timezone.get_current_timezone_name())


@require_POST
@login_required
def clock_pause(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.clock_pause(game=g, by=request.user),
        gettext("The clock is paused: the deadline and midnight wait until you resume."),
    )


@require_POST
@login_required
def clock_resume(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.clock_resume(game=g, by=request.user),
        gettext("The clock is running again."),
    )


@require_POST
@login_required
def clock_extend(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.clock_extend(
            game=g, by=request.user, delta=_move(request), shown=_shown_deadline(request)
        ),
        gettext("The deadline is later now."),
    )


@require_POST
@login_required
def clock_shorten(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.clock_shorten(
            game=g, by=request.user, delta=_move(request), shown=_shown_deadline(request)
        ),
        gettext("The deadline is earlier now."),
    )


@require_POST
@login_required
def clock_deadline(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: deadline_set(
            game=g, by=request.user, at=_deadline_at(request), shown=_shown_deadline(request)
        ),
        gettext("The deadline is set."),
    )


@require_POST
@login_required
def phase_done(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda g: services.phase_lock_in(game=g, user=request.user),
        lambda began: (
            gettext(
                "Every living player is now done: the phase ends early, at the deadline "
                "shown on the page."
            )
            if began
            else gettext(
                "You are done for this phase; that cannot be taken back. "
                "The phase ends early once every living player is done."
            )
        ),
    )


urlpatterns = [
    path("games/<id:game_id>/clock/pause/", clock_pause, name="clock_pause"),
    path("games/<id:game_id>/clock/resume/", clock_resume, name="clock_resume"),
    path("games/<id:game_id>/clock/extend/", clock_extend, name="clock_extend"),
    path("games/<id:game_id>/clock/shorten/", clock_shorten, name="clock_shorten"),
    path("games/<id:game_id>/clock/deadline/", clock_deadline, name="clock_deadline"),
    path("games/<id:game_id>/done/", phase_done, name="phase_done"),
]
