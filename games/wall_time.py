"""A date and time as a member types it (an HTML datetime-local value, in their own zone)
made a moment: the one place that refuses the wall times the clocks skip or pass twice.
Pure: the zone comes in."""

from datetime import UTC, datetime

from django.utils.formats import date_format
from django.utils.translation import gettext

from games.engine import GameRuleError


def zoned_moment(wall: datetime, zone, zone_name: str) -> datetime:
    """`wall` (naive: a wall time in `zone`) as an aware moment; GameRuleError, in words,
    for a time that does not exist there (the clocks go forward) or happens twice (they
    go back). An aware `wall` is taken as it is."""
    if wall.tzinfo is not None:
        return wall
    early, late = wall.replace(tzinfo=zone), wall.replace(tzinfo=zone, fold=1)
    if early.utcoffset() != late.utcoffset():
        said = date_format(wall, "WALL_TIME_FORMAT")  # the reader's words: "Sun 30 Mar 2025, 02:30"
        if early.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall:
            raise GameRuleError(
                gettext(
                    "%(wall)s does not exist in %(zone)s: the clocks go forward then. "
                    "Choose another time"
                )
                % {"wall": said, "zone": zone_name}
            )
        raise GameRuleError(
            gettext(
                "%(wall)s happens twice in %(zone)s: the clocks go back then. "
                "Choose a time outside that hour"
            )
            % {"wall": said, "zone": zone_name}
        )
    return early
