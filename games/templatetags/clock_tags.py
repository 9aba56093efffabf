"""The clock on the pages and in emails: deadlines as words and as a countdown.

The words are games/narration/durations.py's (mirrored by static/js/deadline.js).
"""

from datetime import timedelta

from django import template
from django.utils import timezone
from django.utils.translation import gettext

from games import deadlines, narration
from games.models import Game
from games.permissions import can_moderate
from games.selectors import early_end_panel
from games.selectors.heartbeat import clock_beat
from games.services.clock import MOVE_CHOICES

register = template.Library()


register.filter("duration_words", narration.duration_words)


@register.filter
def deadline_clock(game) -> dict:
    """What the deadline partial shows: paused or not, the time left, the countdown."""
    now = timezone.now()
    left = deadlines.remaining(game, now)
    return {
        "paused": game.paused_at is not None,
        "left": left,
        "countdown": narration.countdown_words(left) if left is not None else "",
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
    player's "I'm done" button with how many living players are not done yet (W-2a)."""
    user = context["request"].user
    out = {"game": game, "request": context["request"], "csrf_token": context.get("csrf_token")}
    if game.status != Game.Status.RUNNING or not user.is_authenticated:
        return out
    out["moderator"] = can_moderate(game, user)
    out["moves"] = [(m, narration.duration_words(timedelta(minutes=m))) for m in MOVE_CHOICES]
    early = early_end_panel(game, user)
    if early is not None:
        out["early"] = early
    return out


@register.inclusion_tag("clock/_heartbeat.html")
def clock_heartbeat(style="site"):
    """"The clock last ran N s ago", a warning once it counts as stopped: the desk and the
    admin (`style="admin"` takes the admin's message classes). One query."""
    beat = clock_beat()
    if beat.age_seconds is None:
        words = gettext("The clock has not run yet.")
    else:
        words = gettext("The clock last ran %(age)d s ago.") % {"age": beat.age_seconds}
    return {"beat": beat, "words": words, "admin": style == "admin"}
