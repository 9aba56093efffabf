"""A member who deleted their account (the core's MEMBER_ERASED; games/leaving does the
deletion): the community's part of it, and of their data's export (MEMBER_EXPORT).

- their seat in each running game is marked for replacement, as when a player asks to
  leave, and offered to the replacement list; with nobody on the list the moderator sees
  the mark on the desk. The game never waits on them: the clock runs as before, and the
  prods pass a marked seat by;
- they leave the open games they signed up for, and the open games they host are
  cancelled (their players told by email);
- their absences, their places on the replacement list and their offers are deleted.
"""

from games.models import Absence, Game, Notification, ReplacementOffer, ReplacementVolunteer, Seat
from games.services.base import game_locked
from games.services.inbox import notifications_write
from games.services.seats import game_leave

from ..narration import member_left_words
from .replacements import _in_play, seat_mark
from .signups import game_cancel


def member_erased(*, user, now, **_) -> None:
    for seat in Seat.objects.filter(user=user, game__status=Game.Status.OPEN):
        game_leave(game=seat.game, user=user)
    for game in Game.objects.filter(host=user, status=Game.Status.OPEN):
        game_cancel(game=game, by=user)
    for seat_id in Seat.objects.filter(user=user, game__status=Game.Status.RUNNING).values_list(
        "pk", flat=True
    ):
        _seat_handed_on(seat_id, user, now)
    Absence.objects.filter(user=user).delete()
    ReplacementVolunteer.objects.filter(user=user).delete()
    ReplacementOffer.objects.filter(user=user).delete()


def _seat_handed_on(seat_id, user, now) -> None:
    seat = Seat.objects.select_related("game").get(pk=seat_id)
    game = game_locked(seat.game)
    seat.user = user  # already "a former member": the thread's notice names nobody
    if seat.replacement_wanted_at is not None or not _in_play(game, seat):
        return  # already offered, or nothing left to hand over (removed; a dead wolf)
    seat_mark(game, seat, reason="asked", now=now)
    if game.host_id != user.pk:
        notifications_write(
            game,
            [(game.host_id, Notification.Kind.REPLACEMENT, f"left-{seat.pk}",
              member_left_words())],
        )  # fmt: skip


def member_export_part(data: dict, *, user, **_) -> dict:
    data["absences"] = [
        {"from": a.starts_at, "until": a.ends_at, "note": a.note}
        for a in Absence.objects.filter(user=user).order_by("starts_at", "pk")
    ]
    data["replacement_list"] = [
        {"game": v.game_id, "hours_per_week": v.hours_per_week, "note": v.note,
         "since": v.created_at}
        for v in ReplacementVolunteer.objects.filter(user=user).order_by("created_at", "pk")
    ]  # fmt: skip
    return data
