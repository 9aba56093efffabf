"""The deliveries, written pending in the game write's own transaction: what a story
becomes for each destination that chose its event (games/webhooks/story.py's sink).

- A destination's language builds its story (blank: the site's LANGUAGE_CODE), once per
  language; the payload is built now, from the story alone, so the row is what is sent.
- `once`: at most one row per destination and key (a unique constraint; callers hold
  the game row's lock, so the check before is exact and the constraint a backstop).
- `replaces` (the vote count): a later story takes over the pending, unclaimed row of
  the same key and pushes it WEBHOOK_DEBOUNCE_SECONDS past this change, so a burst of
  votes posts once; on Discord the sent message is then edited in place.
- Most games have no destination: that is remembered in the cache (QUIET), so a vote
  costs no query here; any change to a destination forgets it (`quiet_forget`).
- Nothing here ever refuses the game's write: a delivery problem is logged and the game
  goes on (a savepoint keeps a failed INSERT from spoiling the caller's transaction).
"""

import logging
import uuid
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone, translation

from accounts.models import User
from games.models import WebhookDelivery, WebhookEndpoint
from games.queue import after_commit
from games.remembered import forget, forget_on_change

from .. import formats

logger = logging.getLogger(__name__)

PENDING = WebhookDelivery.Status.PENDING


# "No enabled destination here" (a game's, or the site's own): kept a few minutes, and
# forgotten whenever a destination is saved or deleted (at the write and after its commit).
QUIET = "webhooks:quiet:"
QUIET_SECONDS = 300


def _quiet_keys(game_id) -> list[str]:
    return [QUIET + "site"] + ([QUIET + str(game_id)] if game_id else [])


def quiet_forget(game_id) -> None:
    """Forget "no destination" of the site and of `game_id`'s game (games/remembered.py:
    at once and after the commit)."""
    forget(*_quiet_keys(game_id))


def quiet_connect() -> None:
    """Forget "no destination" whenever one is added, changed (turned off or on) or removed."""
    forget_on_change(WebhookEndpoint, lambda row: _quiet_keys(row.game_id), uid="webhooks_quiet")


def endpoints_for(game, event: str):
    """The enabled destinations of `game` (and the site-wide ones) that chose `event`."""
    keys = _quiet_keys(game.pk if game is not None else None)
    if len(cache.get_many(keys)) == len(keys):
        return []
    mine = Q(game__isnull=True) if game is None else Q(game=game) | Q(game__isnull=True)
    endpoints = list(WebhookEndpoint.objects.filter(mine, enabled=True))
    quiet = {QUIET + "site": not any(e.game_id is None for e in endpoints)}
    if game is not None:
        quiet[QUIET + str(game.pk)] = not any(e.game_id == game.pk for e in endpoints)
    cache.set_many({key: 1 for key, yes in quiet.items() if yes}, QUIET_SECONDS)
    return [e for e in endpoints if event in (e.events or [])]


def deliveries_write(game, event, build) -> list[int]:
    """The story's sink: a pending row for each destination that chose `event` (a "test"
    goes nowhere unless asked: delivery_test). Never raises into the caller."""
    if event == "test":
        return []
    try:
        endpoints = endpoints_for(game, event)
        if not endpoints:  # most games: one query, no savepoint
            return []
        with transaction.atomic():
            return _write(endpoints, build)
    except Exception:  # the game's write stands; the story is not told
        logger.exception(
            "webhook deliveries for %s of game %s not written", event, game and game.pk
        )
        return []


def delivery_test(*, endpoint: WebhookEndpoint, build) -> list[int]:
    """The desk's "send a test": one row for this destination alone, whatever it chose."""
    return _write([endpoint], build)


def _language(endpoint) -> str:
    return endpoint.language or settings.LANGUAGE_CODE


def _write(endpoints, build) -> list[int]:
    stories = {}
    ids = []
    now = timezone.now()
    for endpoint in endpoints:
        language = _language(endpoint)
        if language not in stories:
            with translation.override(language):
                stories[language] = build(language)
        story = stories[language]
        row = _row(endpoint, story, now)
        if row is not None:
            ids.append(row.pk)
    if ids:
        after_commit("webhooks_send", ids)
    return ids


def _names(endpoint, story) -> list[str]:
    if not (endpoint.mentions and story.mentions):
        return []
    users = User.objects.filter(pk__in=story.mentions).order_by("player_name")
    return list(users.values_list("player_name", flat=True))


def _row(endpoint, story, now):
    if story.once and WebhookDelivery.objects.filter(endpoint=endpoint, once=story.once).exists():
        return None
    payload = formats.payload_build(endpoint.kind, story, _names(endpoint, story))
    if story.replaces:
        # Debounce: the pending row of the key, if no sender holds it, takes the new words.
        debounce = now + timedelta(seconds=settings.WEBHOOK_DEBOUNCE_SECONDS)
        free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
        waiting = WebhookDelivery.objects.filter(
            free, endpoint=endpoint, replaces=story.replaces, status=PENDING
        ).first()
        if waiting is not None:
            # Never sooner than a retry's gap after a failure asked for.
            WebhookDelivery.objects.filter(pk=waiting.pk).update(
                payload=payload, next_try_at=Greatest("next_try_at", Value(debounce)),
                event=story.event,
            )  # fmt: skip
            return waiting
        first_try = debounce
    else:
        first_try = now
    try:
        with transaction.atomic():  # a rival's row of the same `once`: this one only skips
            return WebhookDelivery.objects.create(
                endpoint=endpoint,
                event=story.event,
                payload=payload,
                once=story.once,
                replaces=story.replaces,
                message_id=f"msg_{uuid.uuid4().hex}",
                next_try_at=first_try,
                created_at=now,
            )
    except IntegrityError:
        return None
