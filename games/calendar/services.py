"""The calendar feed's writes: a member's address made or renewed (the old one is dead at
once), turned off, and the moment a calendar app last read it."""

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import CalendarFeed

from .tokens import new_nonce, token_for, token_hash

# A calendar app polls every few minutes to hours: "last read" is written at most this often,
# so polling costs a read, not a write.
FETCHED_EVERY = timedelta(hours=1)


@transaction.atomic
def feed_renew(*, user, now=None) -> CalendarFeed:
    """A new private address for `user` (their first, or one replacing the address they
    had: that one is a 404 from the commit on)."""
    now = now or timezone.now()
    nonce = new_nonce()
    feed, _ = CalendarFeed.objects.select_for_update().update_or_create(
        user=user,
        defaults={
            "nonce": nonce,
            "token_hash": token_hash(token_for(nonce)),
            "created_at": now,
            "fetched_at": None,
        },
    )
    return feed


@transaction.atomic
def feed_remove(*, user) -> bool:
    """Turn `user`'s address off; whether they had one."""
    deleted, _ = CalendarFeed.objects.filter(user=user).delete()
    return bool(deleted)


def feed_fetched(*, feed: CalendarFeed, now=None) -> None:
    """Note that a calendar app read `feed` now: one conditional UPDATE, which writes
    nothing when it was noted within FETCHED_EVERY."""
    now = now or timezone.now()
    CalendarFeed.objects.filter(pk=feed.pk).filter(
        Q(fetched_at__isnull=True) | Q(fetched_at__lt=now - FETCHED_EVERY)
    ).update(fetched_at=now)
