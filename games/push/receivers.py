"""What web push hears of the core: MEMBER_TOLD (a notification queued after the commit),
MEMBER_ERASED and MEMBER_EXPORT (the member's browsers)."""

from games import queue

from . import keys, services


def member_told(*, user_id, game, kind, **_):
    # No query in the write's transaction: the task reads whether they want it.
    if keys.is_enabled():
        queue.after_commit("push_member_told", user_id, game.pk, kind)


def connect():
    queue.connect(queue.MEMBER_TOLD, member_told)
    queue.connect(queue.MEMBER_ERASED, services.member_erased)
    queue.connect(queue.MEMBER_EXPORT, services.member_export_part)
