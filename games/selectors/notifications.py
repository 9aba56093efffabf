"""A member's notifications (games/services/inbox.py writes them): the header's unread
count, the list page, and where each one leads.

The count is on every signed-in page, so it is kept on the user's row
(User.notifications_unread, loaded with the user on every request): it costs no query.
"""

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from ..models import Game, Notification
from ..narration.said import said_text
from ..permissions import AFTERLIFE
from .rooms import room_ref
from .threads import PUBLIC, post_page, post_url

# The list page shows this many, newest first; older ones stay in the table.
LIST_LENGTH = 100
REF_SALT = "games.notifications.ref"
REF_LENGTH = 20


def unread_count(user) -> int:
    """How many of `user`'s notifications are unread (the header's count): no query."""
    return user.notifications_unread


def notification_url(
    game: Game | None, kind: str, thread: str, number: int | None, key: str = ""
) -> str:
    """Where a notification leads: its post (in the public thread, the room or the
    afterlife, or their read-only view once the game is over), else the game page; a
    replacement offer, to the offer (issue 16), a replacement wanted, to the desk; the
    news of a game that is gone (cancelled before its start), to the lobby."""
    if game is None:
        return reverse("game_list")
    if kind == Notification.Kind.WEBHOOK:  # a chat destination turned off: the desk says why
        return reverse("game_desk", args=[game.pk])
    if kind == Notification.Kind.REPLACEMENT:
        if key.startswith("offer-"):
            return reverse("replacement_offer", args=[int(key.removeprefix("offer-"))])
        return reverse("game_desk", args=[game.pk])
    if number is None or kind in (Notification.Kind.WAGON, Notification.Kind.VOTED):
        return reverse("game_detail", args=[game.pk])
    if thread == PUBLIC:
        return post_url(game.pk, number)
    ref = room_ref(game, thread)
    if game.status == Game.Status.FINISHED:
        base = reverse("game_reveal_room", args=[game.pk, ref])
    elif thread == AFTERLIFE:
        base = reverse("game_afterlife", args=[game.pk])
    else:
        base = reverse("game_room", args=[game.pk, ref])
    return f"{base}?page={post_page(number)}#p{number}"


def notification_text(words, text: str) -> str:
    """A notification's line in the active language: its meaning worded, or its stored
    English when no installed app words it (a row from before that was not read back)."""
    return said_text(words, text)


@dataclass
class NotificationRow:
    ref: str  # notification_ref: the link's name for it
    kind: str
    text: str
    game_title: str
    url: str
    created_at: datetime
    unread: bool


# What names a notification to its reader: all of it theirs to see.
REF_FIELDS = ("user_id", "game_id", "kind", "key", "post__thread", "post__number", "created_at")


def notification_ref(values) -> str:
    """The name a notification's link gives it (`values`: its REF_FIELDS), keyed with the
    site's secret. Never its row's id, which counts every member's notifications, those
    of mentions in private rooms too, nor anything else its reader may not see (issue 25)."""
    user, game, kind, key, thread, number, at = values
    # A post's notification is keyed by the post's row id (a mention's or a quote's): named
    # by the post's thread and number instead.
    seen = (user, game, kind, key if thread is None else "", thread, number, at.isoformat())
    text = repr(seen)
    return salted_hmac(REF_SALT, text, algorithm="sha256").hexdigest()[:REF_LENGTH]


def notification_find(user, ref: str) -> int | None:
    """The id of `user`'s notification named `ref`, or None: their notifications are read
    (one query) and named in turn, a few microseconds each."""
    if len(ref) != REF_LENGTH:
        return None
    rows = Notification.objects.filter(user=user).values_list("pk", *REF_FIELDS)
    return next((r[0] for r in rows if constant_time_compare(notification_ref(r[1:]), ref)), None)


def notification_list(user) -> list[NotificationRow]:
    """`user`'s latest notifications, newest first, each with where it leads. One query."""
    rows = (
        Notification.objects.filter(user=user)
        .select_related("game", "post")
        .only(
            "user",
            "kind",
            "text",
            "words",
            "created_at",
            "read_at",
            "game__title",
            "game__status",
            "game__seed",
            "post__thread",
            "post__number",
            "key",
        )  # fmt: skip
        .order_by("-created_at", "-pk")[:LIST_LENGTH]
    )
    return [
        NotificationRow(
            ref=notification_ref(
                (
                    n.user_id,
                    n.game_id,
                    n.kind,
                    n.key,
                    n.post and n.post.thread,
                    n.post and n.post.number,
                    n.created_at,
                )
            ),  # fmt: skip
            kind=n.kind,
            text=notification_text(n.words, n.text),
            game_title=n.game.title if n.game else "",  # a game gone: its words name it
            url=notification_url(
                n.game,
                n.kind,
                n.post.thread if n.post else PUBLIC,
                n.post.number if n.post else None,
                n.key,
            ),
            created_at=n.created_at,
            unread=n.read_at is None,
        )
        for n in rows
    ]
