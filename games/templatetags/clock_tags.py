"""The clock on the pages and in emails: deadlines as words and as a countdown. Plain
formatters: what a page's clock controls need is read by its selector (the game page's
"I'm done", selectors/clock.py; the desk's, selectors/desk.py).

The words are games/narration/durations.py's (mirrored by static/js/deadline.js).
"""

from django import template
from django.utils import timezone
from django.utils.translation import gettext

from games import deadlines, narration

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


@register.inclusion_tag("clock/_heartbeat.html")
def clock_heartbeat(beat, style="site"):
    """ "The clock last ran N s ago" from the page's ClockBeat (selectors/heartbeat.py), a
    warning once it counts as stopped: the desk and the admin (`style="admin"` takes the
    admin's message classes)."""
    if beat.age_seconds is None:
        words = gettext("The clock has not run yet.")
    else:
        words = gettext("The clock last ran %(age)d s ago.") % {"age": beat.age_seconds}
    return {"beat": beat, "words": words, "admin": style == "admin"}
