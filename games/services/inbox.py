"""The inbox: how the site tells a member something in-site (the header's count,
/notifications/) and, for those who opted in, by email. Rows of Notification; what
triggers them (a mention, a wagon, a prod, an offer, a sign-up's notice) is the caller's.

A notification keeps what it says as meaning (`words`, a kind of games/narration/said.py
that its capability registers) and is worded when read: the list in its reader's
language, the email in its recipient's (games/mail.py).
"""

from collections import Counter

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts.language import lazy_words
from accounts.models import User

from ..mail import absolute_url, message_build
from ..models import Game, Notification
from ..narration.said import said_english
from ..selectors.notifications import notification_find, notification_text, notification_url
from ..selectors.threads import PUBLIC


def notification_message(n: Notification, preference: str):
    post = n.post
    url = notification_url(
        n.game, n.kind, post.thread if post else PUBLIC, post.number if post else None
    )
    # Worded when the email is rendered: in its recipient's language.
    text = lazy_words(notification_text, n.words, n.text)
    context = {"game": n.game, "text": text, "url": absolute_url(url)}
    return message_build(n.user, "notification", context, preference)


def notification_new(*, words: dict, **fields) -> Notification:
    """An unsaved notification saying `words` (a said.py meaning), its English kept too."""
    return Notification(words=words, text=said_english(words)[:300], **fields)


def notifications_write(game: Game | None, rows, *, once: bool = False) -> list[Notification]:
    """In-site notifications that are no post's (an alert, an offer, a prod, a sign-up's
    notice): `rows` are (user_id, kind, key, words), `words` a said.py meaning; `game` is
    None for a game that is gone (its words name it). With
    `once`, a row whose user, kind and key were written before is left out (callers hold
    the game row's lock, so the check is exact). One INSERT, and the unread counts."""
    if once:
        rows = notifications_unwritten(game, rows)
    new = [
        notification_new(user_id=u, game=game, kind=k, key=key, words=w) for u, k, key, w in rows
    ]
    Notification.objects.bulk_create(new)
    unread_add(n.user_id for n in new)
    return new


def notifications_unwritten(game: Game, rows) -> list:
    """`rows` (user_id, kind, key, words) less those whose user, kind and key were written."""
    if not rows:
        return rows
    done = set(
        Notification.objects.filter(
            game=game, kind__in={k for _u, k, _key, _t in rows},
            key__in={key for _u, _k, key, _t in rows},
        ).values_list("user_id", "kind", "key")
    )  # fmt: skip
    return [row for row in rows if tuple(row[:3]) not in done]


# --- the unread count (User.notifications_unread: the header's, no query to read) -------
def unread_add(user_ids) -> None:
    """One more unread for each time a user is in `user_ids`: an UPDATE per distinct
    number (a post adds one to each)."""
    by_count = Counter(user_ids)
    for n in sorted(set(by_count.values())):
        ids = [pk for pk, count in by_count.items() if count == n]
        User.objects.filter(pk__in=ids).update(notifications_unread=F("notifications_unread") + n)


# --- reading -----------------------------------------------------------------------------
@transaction.atomic
def notification_open(*, user, ref: str) -> Notification | None:
    """`user`'s notification named `ref` (selectors.notifications.notification_ref), marked
    read (with its game and post, to lead there); None for one that is not theirs."""
    pk = notification_find(user, ref)
    if pk is None:
        return None
    found = Notification.objects.filter(user=user, pk=pk).select_related("game", "post").first()
    if found is not None and found.read_at is None:
        found.read_at = timezone.now()
        found.save(update_fields=["read_at"])
        User.objects.filter(pk=user.pk).update(
            notifications_unread=Greatest(F("notifications_unread") - 1, 0)
        )
    return found


@transaction.atomic
def notifications_read_all(*, user) -> int:
    """Mark every unread notification of `user` read; returns how many. Sets the count
    to nought, which also mends it if it ever drifted (a game deleted with its rows)."""
    count = Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    User.objects.filter(pk=user.pk).update(notifications_unread=0)
    return count
