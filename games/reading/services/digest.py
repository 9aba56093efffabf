"""The daily digest: "since you last read" of each of a member's games, sent once
a day in their morning.

The digest (User.email_digest, opt-in in the profile) goes out from the `email` queue's
beat entry (`games.tasks.digest_sweep`, games/reading/tasks.py): each member whose local
time has reached DIGEST_HOUR and who has had no digest since that morning is claimed by
one conditional UPDATE of User.digest_sent_at (the value read must still be there), so two
workers, or a sweep run twice, send it once. Its content is the "since you last read" of
each of their games (selectors/since.py digest_pages), after the last digest: nothing their
pages would not show them.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.language import in_language_of
from accounts.models import User
from games.mail import absolute_url, message_build, send_after_commit
from games.models import Game

from ..narration import since as words
from ..selectors.since import digest_pages

logger = logging.getLogger(__name__)

# The digest's hour in each member's own zone, and how long after it a late sweep (the
# beat was down) still sends that day's: after the window, the next morning's comes.
DIGEST_HOUR = 7
DIGEST_WINDOW = timedelta(hours=3)
DIGESTS_PER_SWEEP = 500


def digest_morning(now, zone):
    """The start of the digest's window today in `zone` (DIGEST_HOUR local), and whether
    `now` is inside it."""
    local = now.astimezone(zone)
    morning = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    return morning, morning <= local < morning + DIGEST_WINDOW


def digest_due(user, now) -> bool:
    """Whether `user`'s digest is due: their morning window has begun, and no digest went
    out since its start."""
    morning, inside = digest_morning(now, user.zoneinfo)
    return inside and (user.digest_sent_at is None or user.digest_sent_at < morning)


def _digest_claim(user_id: int, previous, now) -> bool:
    """Claim today's digest of one member: their digest_sent_at moves from the value read
    (`previous`) to `now`, or nothing happens when someone else moved it first. A conditional
    UPDATE: on PostgreSQL the second of two rival updates waits for the first and then finds
    its condition false; SQLite runs one write at a time."""
    rows = User.objects.filter(pk=user_id, email_digest=True, is_active=True)
    if previous is None:
        rows = rows.filter(digest_sent_at__isnull=True)
    else:
        rows = rows.filter(digest_sent_at=previous)
    return rows.update(digest_sent_at=now) == 1


def digest_send(*, user, now) -> bool:
    """Send `user`'s digest now if it is due and nobody else has: claimed in this
    transaction, built from selectors/since.py digest_pages (what happened after their
    previous digest, in games they play in), sent after commit. Nothing is sent when none
    of their games has anything to tell; the day counts as done all the same."""
    if not digest_due(user, now):
        return False
    previous = user.digest_sent_at
    with transaction.atomic():
        if not _digest_claim(user.pk, previous, now):
            return False
        # The pages' words too are the member's language and zone, not the worker's.
        with in_language_of(user), timezone.override(user.zoneinfo):
            pages = digest_pages(user, since=previous)
            if not pages:
                return False
            context = {
                "pages": pages,
                "site_url": absolute_url(""),
                "since_urls": {
                    p.game.pk: absolute_url(reverse("game_since", args=[p.game.pk])) for p in pages
                },
                "subject": words.digest_subject(len(pages)),
                "previous": previous,
            }
            message = message_build(user, "digest", context, "digest")
        send_after_commit([message])
    return True


def digests_send(*, now=None) -> int:
    """The beat's digest sweep (`games.tasks.digest_sweep`): every member with the digest on
    whose morning has come and who plays in a running game (or one that ended since their
    last digest) gets one. Returns how many were sent."""
    now = now or timezone.now()
    recent = now - timedelta(days=2)
    users = (
        User.objects.filter(email_digest=True, is_active=True)
        .filter(Q(digest_sent_at__isnull=True) | Q(digest_sent_at__lt=now - timedelta(hours=12)))
        .filter(Q(seats__game__status=Game.Status.RUNNING) | Q(seats__game__finished_at__gt=recent))
        .distinct()
        .order_by("pk")
    )
    sent = 0
    for user in users[:DIGESTS_PER_SWEEP]:
        if not digest_due(user, now):
            continue
        try:
            sent += digest_send(user=user, now=now)
        except Exception:  # one member's digest never stops the others'
            logger.exception("could not build the digest of user %s", user.pk)
    return sent
