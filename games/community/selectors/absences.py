"""Members' declared absences (models.Absence): who is away at a moment and until when,
for the prod sweep, the desk's player list and the game's player list."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from games.models import Absence


def away_until(user_ids, at: datetime) -> dict[int, datetime]:
    """Each of `user_ids` absent at the moment `at`, mapped to when they are back: the end
    of the absence covering `at`, carried on through any absences that overlap or touch
    it (two declared stretches back to back are one absence). One query."""
    return {user: a.ends_at for user, a in absences_shown(user_ids, at).items() if a.begun}


@dataclass
class Away:
    """A member's current or next absence, as a player list shows it: `last_day` is the
    last moment away (the end is the midnight after the last day, exclusive)."""

    starts_at: datetime
    ends_at: datetime
    note: str  # for moderators only: the template shows it on the desk alone
    begun: bool = False  # away already (else: to come)

    @property
    def last_day(self) -> datetime:
        return self.ends_at - timedelta(microseconds=1)


def absences_shown(user_ids, now: datetime) -> dict[int, Away]:
    """Each of `user_ids` with an absence now or to come, mapped to the first such one
    (stretches that overlap or touch merged, their notes joined). One query."""
    user_ids = list(user_ids)
    if not user_ids:
        return {}
    rows = (
        Absence.objects.filter(user_id__in=user_ids, ends_at__gt=now)
        .order_by("user_id", "starts_at", "pk")
        .values_list("user_id", "starts_at", "ends_at", "note")
    )
    shown: dict[int, Away] = {}
    for user_id, starts_at, ends_at, note in rows:
        away = shown.get(user_id)
        if away is None:
            shown[user_id] = Away(starts_at, ends_at, note, begun=starts_at <= now)
        elif starts_at <= away.ends_at:
            away.ends_at = max(away.ends_at, ends_at)
            away.note = "; ".join(n for n in (away.note, note) if n)
    return shown


@dataclass
class AbsenceRow:
    pk: int
    starts_at: datetime
    ends_at: datetime
    note: str

    @property
    def last_day(self) -> datetime:
        return self.ends_at - timedelta(microseconds=1)


def absences_of(user, now: datetime) -> list[AbsenceRow]:
    """The member's own absences that have not ended, soonest first (their page)."""
    return [
        AbsenceRow(*row)
        for row in Absence.objects.filter(user=user, ends_at__gt=now)
        .order_by("starts_at", "pk")
        .values_list("pk", "starts_at", "ends_at", "note")
    ]
