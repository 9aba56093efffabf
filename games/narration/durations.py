"""Lengths of time in words, in one format for every page, notice and email:
"2 d 3 h", "2 h 14 min", "14 min", "less than a minute" (rounded down, at most two parts).

static/js/deadline.js mirrors `duration_words` and `countdown_words` to keep a
server-rendered countdown live: change both together.
"""

from datetime import timedelta

from django.utils import formats, timezone
from django.utils.translation import gettext as _


def duration_words(delta: timedelta | None) -> str:
    """2 d 3 h, 2 h 14 min, 14 min, or less than a minute (rounded down)."""
    if delta is None:
        return ""
    minutes = max(int(delta.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days and hours:
        return _("%(days)s d %(hours)s h") % {"days": days, "hours": hours}
    if days:
        return _("%(days)s d") % {"days": days}
    if hours and minutes:
        return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}
    if hours:
        return _("%(hours)s h") % {"hours": hours}
    if minutes:
        return _("%(minutes)s min") % {"minutes": minutes}
    return _("less than a minute")


def countdown_words(delta: timedelta) -> str:
    """When a deadline comes: "in 2 h 14 min", or "any moment now" once it is due."""
    if delta <= timedelta(0):
        return _("any moment now")
    return _("in %(duration)s") % {"duration": duration_words(delta)}


def moment_utc(at) -> str:
    """A moment in UTC as a notice words it: "Tue 03 Mar, 00:00 UTC" (in the language's
    NOTICE_UTC_FORMAT, witchhunt/formats)."""
    return _("%(moment)s UTC") % {"moment": formats.date_format(at, "NOTICE_UTC_FORMAT")}


def moment_here(at) -> str:
    """A moment as a notice's plain words read: in the reader's zone (the current one) with
    its name, "Tue 03 Mar, 09:00 JST"; moment_utc's words for a reader on UTC."""
    zone = timezone.get_current_timezone()
    if getattr(zone, "key", str(zone)) in ("UTC", "Etc/UTC"):
        return moment_utc(at)
    local = at.astimezone(zone)
    return f"{formats.date_format(local, 'NOTICE_UTC_FORMAT')} {local.tzname()}"
