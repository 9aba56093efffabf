"""The clock's heartbeat and the watch on it (docs/operations.md, "Watch it").

Beat is a single process: if it (or every clock worker) dies, deadlines silently stop. So
each beat's sweep writes the moment it ran (`heartbeat_beat`, one UPDATE of one row), and
the web side, which keeps serving when beat is dead, watches that moment
(`clock_watch`): the health endpoint on every call, and any request at most once every
CLOCK_WATCH_SECONDS per process (witchhunt/health.py). When the heartbeat is older than
CLOCK_STALE_SECONDS, the site's admins (settings.ADMINS) get one email for the episode;
when it is fresh again, one "the clock is back" email; the next episode emails again.

Once per episode is a claim in PostgreSQL, never in Redis (Redis may be what is down): a
conditional UPDATE of the heartbeat row that only one process can win. The email is sent
here, by the web process itself, not queued: the broker or the email worker may be down
too. A send that fails gives the claim back, so the next check tries again.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import mail_admins
from django.db.models import Q
from django.utils import timezone

from ..models import ClockHeartbeat
from ..selectors.heartbeat import ClockBeat, clock_beat

logger = logging.getLogger(__name__)

STOPPED, BACK = "stopped", "back"


def heartbeat_beat(now: datetime | None = None) -> None:
    """The clock ran at `now`: one UPDATE; the row is made again if it is missing."""
    now = now or timezone.now()
    if not ClockHeartbeat.objects.filter(pk=ClockHeartbeat.SINGLETON).update(beat_at=now):
        ClockHeartbeat.objects.bulk_create(
            [ClockHeartbeat(pk=ClockHeartbeat.SINGLETON, beat_at=now)], ignore_conflicts=True
        )


def _fresh(now: datetime) -> Q:
    return Q(beat_at__gte=now - timedelta(seconds=settings.CLOCK_STALE_SECONDS))


def clock_watch(now: datetime | None = None, beat: ClockBeat | None = None) -> str | None:
    """Tell the site's admins when the clock has stopped, and when it is back: returns
    STOPPED or BACK when this call claimed (and sent) that email, else None. `beat` is the
    heartbeat already read (the health endpoint's), to spare a query."""
    now = now or timezone.now()
    beat = beat or clock_beat(now)
    row = ClockHeartbeat.objects.filter(pk=ClockHeartbeat.SINGLETON)
    if beat.stale and not beat.alerted:
        if beat.last_at is None:  # the row itself is missing: make it, as never beaten
            ClockHeartbeat.objects.bulk_create(
                [ClockHeartbeat(pk=ClockHeartbeat.SINGLETON)], ignore_conflicts=True
            )
        # The claim: one process alone turns NULL into now, and only while still stale.
        stale = row.filter(~_fresh(now) | Q(beat_at=None), stale_alerted_at=None)
        if stale.update(stale_alerted_at=now):
            return _send(STOPPED, beat, now, give_back={"stale_alerted_at": None})
    elif not beat.stale and beat.alerted:
        # The same the other way: one process alone clears it, and only while fresh.
        if row.filter(_fresh(now), stale_alerted_at__isnull=False).update(stale_alerted_at=None):
            return _send(BACK, beat, now, give_back={"stale_alerted_at": now})
    return None


def _words(what: str, beat: ClockBeat, now: datetime) -> tuple[str, str]:
    last = f"{beat.last_at:%Y-%m-%d %H:%M:%S} UTC" if beat.last_at else "never"
    if what == STOPPED:
        return "The clock has stopped", (
            f"The clock's sweep last ran: {last}. It runs every 10 seconds, and it has not run "
            f"for more than {beat.stale_after} seconds.\n\n"
            "While it is stopped no deadline passes and no night resolves; nothing is lost, "
            "and the clock catches up when it runs again.\n\n"
            "Check the beat and clock-worker services and the broker (Redis); "
            'docs/operations.md, "Watch it". You will get one email when the clock is back.'
        )
    return "The clock is back", (
        f"The clock's sweep ran again at {last} (checked at {now:%Y-%m-%d %H:%M:%S} UTC). "
        "The deadlines that passed while it was stopped are being resolved now, the "
        "earliest first."
    )


def _send(what: str, beat: ClockBeat, now: datetime, *, give_back: dict) -> str | None:
    subject, body = _words(what, beat, now)
    try:
        mail_admins(subject, body)
    except Exception:  # the mail server refused or is down: give the claim back
        logger.exception("the clock watch could not email the admins (%s)", what)
        ClockHeartbeat.objects.filter(pk=ClockHeartbeat.SINGLETON).update(**give_back)
        return None
    logger.warning("clock watch: %s (last ran %s)", what, beat.last_at)
    return what
