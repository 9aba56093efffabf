"""The calendar listens to a member's erasure (their address goes with them) and to their
data's download (when their address was made and last read; never the address itself, a
key a download should not carry)."""

from games import queue
from games.models import CalendarFeed


def member_erased(*, user, **_) -> None:
    CalendarFeed.objects.filter(user=user).delete()


def member_export_part(data: dict, *, user, **_) -> dict:
    feed = CalendarFeed.objects.filter(user=user).first()
    data["calendar"] = (
        {"address_made_at": feed.created_at, "last_read_at": feed.fetched_at} if feed else None
    )
    return data


def connect() -> None:
    queue.connect(queue.MEMBER_ERASED, member_erased)
    queue.connect(queue.MEMBER_EXPORT, member_export_part)
