"""Members' declared absences (models.Absence): who is away at a moment and until when,
for the prod sweep, the desk's player list and the game's player list."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache

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
    return _merged(_rows(user_ids, now), now)


def _rows(user_ids, now: datetime) -> list[tuple]:
    """(user id, starts_at, ends_at, note) of each absence of `user_ids` not over at `now`,
    by member and start."""
    return list(
        Absence.objects.filter(user_id__in=user_ids, ends_at__gt=now)
        .order_by("user_id", "starts_at", "pk")
        .values_list("user_id", "starts_at", "ends_at", "note")
    )


def _merged(rows, now: datetime) -> dict[int, Away]:
    shown: dict[int, Away] = {}
    for user_id, starts_at, ends_at, note in rows:
        away = shown.get(user_id)
        if away is None:
            shown[user_id] = Away(starts_at, ends_at, note, begun=starts_at <= now)
        elif starts_at <= away.ends_at:
            away.ends_at = max(away.ends_at, ends_at)
            away.note = "; ".join(n for n in (away.note, note) if n)
    return shown


# --- the game page's player list, from the cache --------------------------------------------
# Every read of a game page shows its players' absences: they are kept in the default cache
# (Redis; a miss while it is down, witchhunt/cache.py), each game's players' under a key
# that names the site's absences version. Any absence created, changed or deleted gives the
# site a new version after its commit (receivers.py: the model's own signals, so the
# services, a member's erasure and a deleted account all count), so no entry outlives the
# rows it was read from. Reads before the commit keep an old version's key, which nobody
# asks again. A version is a fresh random token, never a counter: one lost with Redis's
# data cannot come back and find old entries. An absence that ends needs no write: an entry
# holds every absence not over when it was read, and each read keeps those not over `now`.
# Bulk writes (QuerySet.update, bulk_create) send no signal: ENTRY_SECONDS bounds them.
VERSION_KEY = "absences:version"
VERSION_SECONDS = 7 * 24 * 3600
ENTRY_SECONDS = 15 * 60


def absences_version_renew() -> None:
    """A new version for the site's absences: every cached player list is read again."""
    cache.set(VERSION_KEY, secrets.token_hex(8), VERSION_SECONDS)


def _version() -> str:
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, secrets.token_hex(8), VERSION_SECONDS)
        version = cache.get(VERSION_KEY)  # another process's token, if it added first
    return version


def absences_shown_cached(user_ids, now: datetime) -> dict[int, Away]:
    """`absences_shown`, read from the cache when it holds the players' absences as they
    are now: no query then, one to fill it. `now` earlier than the entry's reading (a
    clock behind another process's) reads the rows."""
    user_ids = sorted(set(user_ids))
    if not user_ids:
        return {}
    version = _version()
    if version is None:  # the cache cannot be reached
        return absences_shown(user_ids, now)
    ids = hashlib.blake2b(repr(user_ids).encode(), digest_size=16).hexdigest()
    key = f"absences:{version}:{ids}"
    entry = cache.get(key)
    if entry is not None and entry[0] <= now:
        return _merged([row for row in entry[1] if row[2] > now], now)
    rows = _rows(user_ids, now)
    cache.set(key, (now, rows), ENTRY_SECONDS)
    return _merged(rows, now)


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
