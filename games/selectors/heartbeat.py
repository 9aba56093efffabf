"""How long ago the clock last ran (services/sweep.py writes the heartbeat): the health
endpoint, the desk and the admin show it. One query of one row, nothing of any game."""

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from ..models import ClockHeartbeat


@dataclass(frozen=True)
class ClockBeat:
    last_at: datetime | None  # None: the clock has not run since the tables were made
    age_seconds: int | None
    stale_after: int  # settings.CLOCK_STALE_SECONDS
    alerted: bool  # the site's admins were told of this stale episode

    @property
    def stale(self) -> bool:
        """The clock counts as stopped: it has not run for longer than CLOCK_STALE_SECONDS."""
        return self.age_seconds is None or self.age_seconds > self.stale_after


def clock_beat(now: datetime | None = None) -> ClockBeat:
    """The clock's heartbeat as it stands at `now` (raises the database's error when the
    database cannot be reached: the health endpoint reports that)."""
    now = now or timezone.now()
    row = ClockHeartbeat.objects.filter(pk=ClockHeartbeat.SINGLETON).first()
    last_at = row.beat_at if row else None
    age = None if last_at is None else max(0, int((now - last_at).total_seconds()))
    return ClockBeat(
        last_at=last_at,
        age_seconds=age,
        stale_after=settings.CLOCK_STALE_SECONDS,
        alerted=bool(row and row.stale_alerted_at),
    )
