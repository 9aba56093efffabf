"""The site's own notifications (a game filled, started, did not fill by its start date):
a line in the member's notifications, and an email when they want that kind of email.

Written in the caller's transaction (the game row locked); the emails are built by the
`notice_emails` task after it commits, each in its reader's zone with the unsubscribe
link of its preference (games/mail.py), so a write that rolls back tells nobody.
"""

from games.mail import PREFERENCES, send_after_commit
from games.models import Game, Notification
from games.queue import after_commit
from games.services.inbox import notification_message, notifications_write


def notices_create(
    *, game: Game, kind: str, key: str, texts: dict[int, dict], email: str | None = None
) -> int:
    """Notify each user id of `texts` with its words (a said.py meaning), once per game,
    kind and `key`: a user already told (the same key) is not told again. `email`: the
    preference (a key of mail.PREFERENCES) under which those who want it also get an
    email; None for in-site only (e.g. the role email already says it). Returns how many
    were written."""
    rows = notifications_write(
        game, [(user_id, kind, key, words) for user_id, words in texts.items()], once=True
    )
    if rows and email is not None:
        after_commit("notice_emails", [n.pk for n in rows], email)
    return len(rows)


def notice_emails_send(*, ids: list[int], preference: str) -> int:
    """The emails of notifications `ids`, to those whose `preference` is on (read now,
    so an unsubscribe in between is honoured)."""
    field, _label = PREFERENCES[preference]
    rows = Notification.objects.filter(pk__in=ids, **{f"user__{field}": True}).select_related(
        "user", "game", "post"
    )
    messages = [notification_message(n, preference) for n in rows]
    send_after_commit(messages)
    return len(messages)
