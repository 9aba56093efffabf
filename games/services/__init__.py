"""Every write, one module per area; each service is one transaction that locks the game
row first (base.game_locked), lets the engine decide, and stores what it said. Services
never import the Celery layer: they name what must follow a commit through games/queue.py.

The names below are the ones views, the admin and the sweep use.
"""

from .base import SetupProblems, game_locked, game_moderated, seat_of
from .clock import clock_extend, clock_pause, clock_resume, clock_retry, clock_shorten
from .emails import (
    email_preference_off,
    phase_emails_send,
    reminders_decide,
    reminders_write,
    role_emails_send,
)
from .games import game_create, game_start
from .inputs import input_apply, phase_end_if_ready
from .moderation import (
    announcement_post,
    member_find,
    member_find_by_email_allowed,
    player_remove,
    player_replace,
    post_hide,
    post_show,
    stalemate_declare,
)
from .phases import advance_refusal, midnight_pass, phase_advance, phase_lock_in
from .play import action_submit, action_withdraw, seat_input_apply, vote_cast, vote_withdraw
from .post_edits import edit_refusal, post_edit
from .posts import clean_body, moderator_notice_create, post_create, post_preview, room_post
from .seats import game_join, game_leave
from .sweep import clock_sweep, clock_tick, reminder_tick

__all__ = [
    "SetupProblems",
    "action_submit",
    "action_withdraw",
    "advance_refusal",
    "announcement_post",
    "clean_body",
    "clock_extend",
    "clock_pause",
    "clock_resume",
    "clock_retry",
    "clock_shorten",
    "clock_sweep",
    "clock_tick",
    "email_preference_off",
    "game_create",
    "game_join",
    "game_leave",
    "game_locked",
    "game_moderated",
    "game_start",
    "input_apply",
    "member_find",
    "member_find_by_email_allowed",
    "midnight_pass",
    "moderator_notice_create",
    "phase_advance",
    "phase_emails_send",
    "phase_end_if_ready",
    "phase_lock_in",
    "player_remove",
    "player_replace",
    "post_hide",
    "post_show",
    "post_create",
    "post_edit",
    "edit_refusal",
    "post_preview",
    "reminder_tick",
    "reminders_decide",
    "reminders_write",
    "role_emails_send",
    "room_post",
    "seat_input_apply",
    "seat_of",
    "stalemate_declare",
    "vote_cast",
    "vote_withdraw",
]
