"""The community listens to the start (each player told in-site that their cards are
dealt; the role email says it by email) and to the clock's sweep (community/ticks.py)."""

from games import queue
from games.models import Notification
from games.narration.signups import started_text
from games.services.notices import notices_create

from . import ticks


def players_told(*, game, seats, **_):
    notices_create(
        game=game,
        kind=Notification.Kind.SIGNUP,
        key="started",
        texts={seat.user_id: started_text() for seat in seats},
    )


def connect():
    queue.connect(queue.GAME_STARTED, players_told)
    queue.connect(queue.SWEEP_TICKED, ticks.ticks_run)
