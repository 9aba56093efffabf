"""The community listens to the core's seats (a member's join checked against the game's
bar, the last seat taken, a seat changing hands), to the start (each player told in-site
that their cards are dealt; the role email says it by email) and to the clock's sweep
(community/ticks.py); and to its own absences' rows, whose every change renews the cached
player lists' version (selectors/absences.py)."""

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from games import queue
from games.models import Absence, Notification

from . import ticks
from .narration import started_words
from .selectors.absences import absences_version_renew
from .services.members import member_erased, member_export_part
from .services.notices import notices_create
from .services.replacements import offers_closed
from .services.signups import game_filled, join_checked


def players_told(*, game, seats, **_):
    notices_create(
        game=game,
        kind=Notification.Kind.SIGNUP,
        key="started",
        texts={seat.user_id: started_words() for seat in seats},
    )


def absence_changed(**_):
    """An absence created, changed or deleted, by whatever path saves or deletes the row
    (the services, a member's erasure, an account deleted with its absences): the game
    pages' player lists are read again, at once (a read in the same transaction sees the
    write) and once it commits (a read elsewhere meanwhile kept the rows as they were)."""
    absences_version_renew()
    transaction.on_commit(absences_version_renew)


def connect():
    post_save.connect(absence_changed, sender=Absence, dispatch_uid="community_absence_saved")
    post_delete.connect(absence_changed, sender=Absence, dispatch_uid="community_absence_deleted")
    queue.connect(queue.SEAT_WANTED, join_checked)
    queue.connect(queue.GAME_FILLED, game_filled)
    queue.connect(queue.SEAT_CHANGED_HANDS, offers_closed)
    queue.connect(queue.GAME_STARTED, players_told)
    queue.connect(queue.SWEEP_TICKED, ticks.ticks_run)
    queue.connect(queue.MEMBER_ERASED, member_erased)
    queue.connect(queue.MEMBER_EXPORT, member_export_part)
