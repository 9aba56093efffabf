"""A member's absences (issue 16): days they declare they will be away, in their own zone,
shown to their games' moderators (with the note) and in the player lists (without it);
the prod rule waits until they are back (selectors/absences.py `away_until`).

An absence belongs to the member, not to a game: no game row is locked. The member's own
row is, so that two declarations at once cannot pass the limit together.
"""

from datetime import UTC, date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.engine import GameRuleError
from games.models import Absence

from ..narration import note_too_long

MAX_DAYS = 60  # one absence; a longer one is a break from the site, not from a game
MAX_AHEAD = timedelta(days=365)
MAX_OPEN = 20  # absences not yet over, per member
NOTE_MAX = 200  # Absence.note


def _midnight(day: date, zone) -> datetime:
    """The start of `day` in `zone`, in UTC (a midnight the clocks skip is the moment they
    jump from: zoneinfo's fold=0)."""
    return datetime.combine(day, time.min).replace(tzinfo=zone).astimezone(UTC)


@transaction.atomic
def absence_declare(*, user, first_day: date, last_day: date, note: str = "", now=None):
    """Declare that `user` is away from `first_day` to `last_day`, both included, in their
    zone: stored as the moments from the first midnight to the midnight after the last."""
    now = now or timezone.now()
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    note = note.strip()
    if last_day < first_day:
        raise GameRuleError(gettext("the last day away comes before the first"))
    if (last_day - first_day).days + 1 > MAX_DAYS:
        raise GameRuleError(
            ngettext(
                "an absence is at most %(count)s day; declare a longer one in parts",
                "an absence is at most %(count)s days; declare a longer one in parts",
                MAX_DAYS,
            )
            % {"count": MAX_DAYS}
        )
    if len(note) > NOTE_MAX:
        raise GameRuleError(note_too_long(NOTE_MAX))
    zone = user.zoneinfo
    starts_at = _midnight(first_day, zone)
    ends_at = _midnight(last_day + timedelta(days=1), zone)
    if ends_at <= now:
        raise GameRuleError(gettext("those days are over already"))
    if starts_at > now + MAX_AHEAD:
        raise GameRuleError(gettext("declare an absence at most a year ahead"))
    if Absence.objects.filter(user=user, ends_at__gt=now).count() >= MAX_OPEN:
        raise GameRuleError(
            ngettext(
                "you have %(count)s absence to come already: delete one before adding another",
                "you have %(count)s absences to come already: delete one before adding another",
                MAX_OPEN,
            )
            % {"count": MAX_OPEN}
        )
    return Absence.objects.create(user=user, starts_at=starts_at, ends_at=ends_at, note=note)


@transaction.atomic
def absence_delete(*, user, pk: int) -> None:
    """Delete one of `user`'s own absences; anyone else's is as missing as no absence."""
    deleted, _ = Absence.objects.filter(user=user, pk=pk).delete()
    if not deleted:
        raise GameRuleError(gettext("there is no such absence"))
