"""The emails the core's events call for (sent by games/tasks.py after the commit): every
player's cards when the game starts, each phase's news, the end's, and a player's word
that a new result waits on their role page."""

from .. import queue
from ..models import EmailSent


def role_emails(*, game, seats, **_):
    queue.after_commit("game_role_emails", game.pk)
    for seat in seats:  # each player has their cards to read
        queue.member_told(user_id=seat.user_id, game=game, kind="role")


def phase_emails(*, game, phase, first_event, **_):
    queue.after_commit("game_phase_emails", game.pk, EmailSent.Kind.PHASE, phase, first_event)


def end_emails(*, game, first_event, **_):
    queue.after_commit("game_phase_emails", game.pk, EmailSent.Kind.END, game.phase, first_event)


def result_email(*, user_id, game, kind, **_):
    if kind == "result":  # the other kinds' emails are decided where they are told
        queue.after_commit("game_result_email", game.pk, user_id, game.phase)


def connect():
    queue.connect(queue.GAME_STARTED, role_emails)
    queue.connect(queue.PHASE_BEGAN, phase_emails)
    queue.connect(queue.GAME_ENDED, end_emails)
    queue.connect(queue.MEMBER_TOLD, result_email)
