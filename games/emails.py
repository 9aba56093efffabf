"""Game emails: deadline reminders, phase changes, the role email, and unsubscribing.

Each email goes to one player's own address (never several in one message), is written
in that player's time zone, and is recorded in EmailSent before it is sent: the row's
unique constraint makes every email go out at most once, whoever else gets there.
Messages leave after the transaction commits, so an email never announces a change that
rolled back, and a failing mail server loses the email (logged) but never the game.

Who gets what:
- reminders (Game.reminder_hours before each deadline; User.email_deadline_reminders):
  the seats the phase still waits for (games/turns.py `awaited`): living players with no
  vote by day, seats with a night duty that submitted nothing by night, the dead
  included when the afterlife has a vote to cast. A day reminder carries the public vote
  count; a night reminder carries no count, as night votes are secret;
- phase changes (User.email_phase_changes): night falls, the morning's announcements,
  the end of the game; public announcements only;
- the role email when a game starts (also User.email_phase_changes, since it is the
  first phase change): the seat's own cards, to the seat's own address only.

Every email carries RFC 8058 one-click unsubscribe headers for its preference; the link
holds a signed token naming the user and the preference (django.core.signing).
"""

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.engine.rulesets.werewolf.roles import ROLES
from games.engine.rulesets.witchhunt.cards import CHARACTERS, TYPES

from . import deadlines, turns
from .mapping import engine_state
from .models import EmailSent, Game, GameEvent, Seat
from .selectors import vote_count
from .templatetags.game_tags import describe_event

logger = logging.getLogger(__name__)

# The preferences a link may turn off: token name -> User field and what it is called.
PREFERENCES = {
    "reminders": ("email_deadline_reminders", "deadline reminders"),
    "phases": ("email_phase_changes", "phase-change and game-start emails"),
}
UNSUBSCRIBE_SALT = "games.emails.unsubscribe"


# --- unsubscribe tokens ----------------------------------------------------------------
def unsubscribe_token(user, preference: str) -> str:
    """A signed token naming the user and the preference; it does not expire, as RFC 8058
    expects one-click links in old emails to keep working."""
    if preference not in PREFERENCES:
        raise ValueError(f"unknown email preference {preference!r}")
    return signing.dumps({"u": user.pk, "p": preference}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_read(token: str):
    """(user, preference) for a valid token, else None (tampered, or the user is gone)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("p") not in PREFERENCES:
        return None
    user = User.objects.filter(pk=data.get("u")).first()
    return (user, data["p"]) if user is not None else None


def email_preference_off(*, user, preference: str) -> None:
    """Turn one email preference off (the profile page turns it back on)."""
    field, _ = PREFERENCES[preference]
    User.objects.filter(pk=user.pk).update(**{field: False})


# --- building and sending --------------------------------------------------------------
def absolute_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_url(game) -> str:
    return absolute_url(reverse("game_detail", args=[game.pk]))


def role_url(game) -> str:
    return absolute_url(reverse("game_role", args=[game.pk]))


def _message(user, template, context, preference):
    """One email to one user, rendered in the user's time zone, with RFC 8058 headers."""
    unsubscribe_url = absolute_url(
        reverse("email_unsubscribe", args=[unsubscribe_token(user, preference)])
    )
    context = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe_url,
        "preference_label": PREFERENCES[preference][1],
        "profile_url": absolute_url(reverse("profile")),
        # A player on UTC needs each time once, not twice.
        "on_utc": user.zoneinfo.key in ("UTC", "Etc/UTC"),
    }
    with timezone.override(user.zoneinfo):
        subject = render_to_string(f"email/{template}_subject.txt", context)
        text = render_to_string(f"email/{template}.txt", context)
        html = render_to_string(f"email/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=settings.EMAIL_SUBJECT_PREFIX + " ".join(subject.split()),
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no auto-replies, please
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _deliver(messages):
    try:
        with get_connection() as connection:
            connection.send_messages(messages)
    except Exception:  # the game goes on; the rows say these were attempted
        logger.exception("could not send %d game emails", len(messages))


def _send_after_commit(messages):
    if messages:
        transaction.on_commit(lambda: _deliver(messages))


def _record_once(game, seat, kind, phase, hours=0) -> bool:
    """Record that this email goes out; False when it already did (or is going)."""
    try:
        with transaction.atomic():
            EmailSent.objects.create(game=game, seat=seat, kind=kind, phase=phase, hours=hours)
    except IntegrityError:
        return False
    return True


def _seats(game):
    return list(Seat.objects.filter(game=game).select_related("user").order_by("position"))


def _names(seats):
    return {s.name: s.user.player_name for s in seats}


# --- reminders -------------------------------------------------------------------------
def reminders_send(*, game: Game, now) -> int:
    """Send the reminders due in `game` (claimed and locked by clock.reminder_tick);
    returns how many emails were queued. When several reminder times are due at once
    (the deadline was moved earlier, or the clock was down), one email goes out, for the
    nearest; the others are marked done."""
    due = deadlines.due_reminders(game, now)
    game.reminders_sent = sorted({*(game.reminders_sent or ()), *due}, reverse=True)
    game.next_reminder_at = deadlines.next_reminder_at(game)
    game.save(update_fields=["reminders_sent", "next_reminder_at"])
    if not due or game.deadline_at <= now:
        return 0  # the deadline itself has passed: the clock resolves the phase instead
    hours = due[-1]
    state = engine_state(game)
    seats = _seats(game)
    names = _names(seats)
    count = vote_count(state) if not state.night else None
    context = {
        "game": game,
        "deadline_at": game.deadline_at,
        "midnight_at": game.midnight_at,
        "left": deadlines.remaining(game, now),
        "count": count,
        "names": names,
        "url": game_url(game) if count else role_url(game),
    }
    messages = []
    for seat in seats:
        user = seat.user
        if not user.email_deadline_reminders or not turns.awaited(state, seat.name):
            continue
        if _record_once(game, seat, EmailSent.Kind.REMINDER, game.phase, hours):
            seat_context = {**context, "seat": seat, "living": state.seat(seat.name).living}
            messages.append(_message(user, "reminder", seat_context, "reminders"))
    _send_after_commit(messages)
    return len(messages)


# --- phase changes and the end ---------------------------------------------------------
def announcements(game, first_event: int, phase: str, names) -> list[str]:
    """The public announcements in words from event `first_event` on, up to the next
    phase (a task that runs late must not announce what came after): no votes."""
    rows = GameEvent.objects.filter(
        game=game, index__gte=first_event, audience=GameEvent.Audience.PUBLIC
    ).order_by("index")
    lines = []
    for row in rows:
        if row.kind == "phase" and row.data.get("phase") != phase:
            break
        if row.kind not in ("vote", "unvote", "phase", "setup"):
            # The same words as the public thread's system posts.
            lines.append(describe_event(row.kind, row.data, names))
    return lines


def phase_emails_send(*, game_id: int, kind: str, phase: str, first_event: int) -> int:
    """Tell the players who want it that `phase` began (or, kind END, that the game
    ended), with the public announcements from event `first_event` on."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return 0
        seats = _seats(game)
        names = _names(seats)
        context = {
            "game": game,
            "phase": phase,
            "night": phase.startswith("night"),
            "end": kind == EmailSent.Kind.END,
            "lines": announcements(game, first_event, phase, names),
            "deadline_at": game.deadline_at if game.phase == phase else None,
            "midnight_at": game.midnight_at if game.phase == phase else None,
            "paused": game.paused_at is not None,
            "url": game_url(game),
        }
        messages = [
            _message(seat.user, "phase", {**context, "seat": seat}, "phases")
            for seat in seats
            if seat.user.email_phase_changes and _record_once(game, seat, kind, phase)
        ]
        _send_after_commit(messages)
    return len(messages)


# --- the role email --------------------------------------------------------------------
def _cards(game, assignment) -> list[dict]:
    """A seat's cards as [{"name", "text"}], from the rulesets' card tables."""
    if game.ruleset == Game.Ruleset.WEREWOLF:
        _, name, text = ROLES[assignment.role]
        return [{"name": name, "text": text}]
    _, name, _, text = CHARACTERS[assignment.character]
    team, label = TYPES[assignment.type]
    side = "the Village" if team == "village" else "the Witches"
    return [{"name": name, "text": text}, {"name": label, "text": f"You play for {side}."}]


def role_emails_send(*, game_id: int) -> int:
    """Each seat's own cards, to that seat's own address only, when the game starts and
    when a replacement takes a seat."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not game.phase:
            return 0
        seats = list(
            Seat.objects.filter(game=game).select_related("user", "assignment").order_by("position")
        )
        context = {
            "game": game,
            "deadline_at": game.deadline_at,
            "url": role_url(game),
            "game_url": game_url(game),
        }
        messages = []
        for seat in seats:
            if not seat.user.email_phase_changes:
                continue
            # Once per occupant of a seat: a replacement (W-72) gets the seat's cards too.
            if _record_once(game, seat, EmailSent.Kind.ROLE, f"user {seat.user_id}"):
                cards = _cards(game, seat.assignment)
                messages.append(
                    _message(seat.user, "role", {**context, "seat": seat, "cards": cards}, "phases")
                )
        _send_after_commit(messages)
    return len(messages)
