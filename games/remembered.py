"""A fact about some rows kept in the cache until those rows change: read on most pages,
changed by a few writes (a game's spectator choices; "this member ignores nobody").

`remembered(key, compute)` reads it, computing and keeping it on a miss (while the cache is
down, every read computes: witchhunt/cache.py). `forget(*keys)` forgets, at once and again
once the transaction commits, so a reader between the two keeps no old fact past it;
SECONDS bounds what a reader that raced a commit kept. `forget_on_change(model, keys_of)`
forgets whenever a row of `model` is saved or deleted (a queryset's delete sends the signal
for each row); a write that sends no signal (`QuerySet.update`, a raw statement) calls
`forget` itself. Used by the spectators' choices, the ignores and the webhooks' "no
destination here".
"""

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

SECONDS = 300
_MISSING = object()


def remembered(key: str, compute, seconds: int = SECONDS):
    value = cache.get(key, _MISSING)
    if value is _MISSING:
        value = compute()
        cache.set(key, value, seconds)
    return value


def forget(*keys: str) -> None:
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


def forget_on_change(model, keys_of, uid: str) -> None:
    """Forget the keys `keys_of(row)` whenever a row of `model` is saved or deleted."""

    def changed(sender, instance, **_):
        forget(*keys_of(instance))

    for signal in (post_save, post_delete):
        signal.connect(changed, sender=model, weak=False, dispatch_uid=uid)
