"""The reports listen to a member's erasure (their reports and ignores go, and every
ignore of them) and to their data's download (their own reports and whom they ignore, by
the names the profile shows: never the member behind an alias); an ignore added or removed
forgets the cached "ignores nobody" of its owner."""

from django.db.models import Q

from games import queue
from games.models import Ignore, PostReport
from games.remembered import forget_on_change

from .selectors import ignores_key, ignores_listed, reports_mine


def member_erased(*, user, **_) -> None:
    PostReport.objects.filter(reporter=user).delete()
    Ignore.objects.filter(Q(owner=user) | Q(member=user)).delete()


def member_export_part(data: dict, *, user, **_) -> dict:
    data["reports"] = [
        {"game": r.game, "post": r.number, "reason": r.reason, "state": r.state,
         "answer": r.answer, "at": r.at}
        for r in reports_mine(user)
    ]  # fmt: skip
    data["ignoring"] = [i.label for i in ignores_listed(user)]
    return data


def connect() -> None:
    queue.connect(queue.MEMBER_ERASED, member_erased)
    queue.connect(queue.MEMBER_EXPORT, member_export_part)
    forget_on_change(Ignore, lambda row: [ignores_key(row.owner_id)], uid="reports.ignores")
