"""The clock on the pages and in emails: deadlines as words and as a countdown.

`duration_words` is mirrored by static/js/countdown.js, which keeps the server-rendered
countdown live; change both together.
"""

from datetime import timedelta

from django import template
from django.utils import timezone

from games import clock, deadlines, turns
from games.mapping import engine_state
from games.models import Game, PhaseLockIn, Seat
from games.services import can_moderate

register = template.Library()


@register.filter
def duration_words(delta: timedelta | None) -> str:
    """2 d 3 h, 2 h 14 min, 14 min, or less than a minute (rounded down)."""
    if delta is None:
        return ""
    minutes = max(int(delta.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min" if minutes else "less than a minute"


def countdown_words(delta: timedelta) -> str:
    if delta <= timedelta(0):
        return "any moment now"
    return "in " + duration_words(delta)


@register.filter
def deadline_clock(game) -> dict:
    """What the deadline partial shows: paused or not, the time left, the countdown."""
    now = timezone.now()
    left = deadlines.remaining(game, now)
    return {
        "paused": game.paused_at is not None,
        "left": left,
        "countdown": countdown_words(left) if left is not None else "",
        "now": now,
        # A viewer on UTC needs the time once, not twice.
        "viewer_on_utc": timezone.get_current_timezone_name() in ("UTC", "Etc/UTC"),
    }


@register.filter
def get_name(names: dict, key):
    """A seat's display name from a {seat name: player name} map."""
    return names.get(key, key)


@register.inclusion_tag("clock/_controls.html", takes_context=True)
def clock_controls(context, game):
    """The moderator's clock controls and, in a game that ends phases early, the
    player's "I'm done" button with how many the phase still waits for."""
    user = context["request"].user
    out = {"game": game, "request": context["request"], "csrf_token": context.get("csrf_token")}
    if game.status != Game.Status.RUNNING or not user.is_authenticated:
        return out
    out["moderator"] = can_moderate(game, user)
    out["moves"] = [(m, duration_words(timedelta(minutes=m))) for m in clock.MOVE_CHOICES]
    seat = Seat.objects.filter(game=game, user=user).first() if game.early_end else None
    if seat is not None:
        state = engine_state(game)
        locked = set(
            PhaseLockIn.objects.filter(game=game, phase=game.phase).values_list(
                "seat__name", flat=True
            )
        )
        deciding = turns.seats_still_deciding(state, locked)
        out["early"] = {
            "open": turns.can_lock_in_now(state),
            "may_act": turns.may_act(state, seat.name),
            "done": seat.name in locked,
            # How many the phase waits for would tell who may act: by night the Angels
            # (W-16: a dead player's team) and who has a night ability, by day an offstage
            # last-act holder (W-14a). Only the living's share, by day, says nothing new.
            "waiting": None
            if state.night
            else sum(1 for name in deciding if state.seat(name).living),
        }
    return out
