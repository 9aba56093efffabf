"""Which game emails go out, and to whom: deadline reminders, phase changes, the role
email, and turning a preference off. games/mail.py builds and sends each one.

Each email is recorded in EmailSent as it is written to the outbox (games/mail.py, sent
by services/outbox.py once the transaction commits): the row's unique constraint makes
every email go out at most once, whoever else gets there.

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
"""

from django.db import IntegrityError, transaction

from accounts.models import User
from games.engine import Phase

from .. import deadlines, turns
from ..mail import PREFERENCES, game_url, message_build, role_url, send_after_commit
from ..mapping import engine_state
from ..models import EmailSent, Game, GameEvent, Seat
from ..narration import describe_event, seat_cards
from ..selectors.seats import display_names, seats_public
from ..selectors.votes import vote_count


def email_preference_off(*, user, preference: str) -> None:
    """Turn one email preference off (the profile page turns it back on)."""
    field, _ = PREFERENCES[preference]
    User.objects.filter(pk=user.pk).update(**{field: False})


def _record_once(game, seat, kind, phase, hours=0) -> bool:
    """Record that this email goes out; False when it already did (or is going)."""
    try:
        with transaction.atomic():
            EmailSent.objects.create(game=game, seat=seat, kind=kind, phase=phase, hours=hours)
    except IntegrityError:
        return False
    return True


# --- reminders -------------------------------------------------------------------------
def reminders_send(*, game: Game, now) -> int:
    """Send the reminders due in `game` (claimed and locked by sweep.reminder_tick);
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
    seats = seats_public(game)
    names = display_names(seats)
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
            messages.append(message_build(user, "reminder", seat_context, "reminders"))
    send_after_commit(messages, expires_at=game.deadline_at)  # "ends in 6 hours"
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
        seats = seats_public(game)
        names = display_names(seats)
        context = {
            "game": game,
            "phase": phase,
            "night": Phase.parse(phase).is_night,  # the game's phase when it began
            "end": kind == EmailSent.Kind.END,
            "lines": announcements(game, first_event, phase, names),
            "deadline_at": game.deadline_at if game.phase == phase else None,
            "midnight_at": game.midnight_at if game.phase == phase else None,
            "paused": game.paused_at is not None,
            "url": game_url(game),
        }
        messages = [
            message_build(seat.user, "phase", {**context, "seat": seat}, "phases")
            for seat in seats
            if seat.user.email_phase_changes and _record_once(game, seat, kind, phase)
        ]
        send_after_commit(messages)
    return len(messages)


# --- the role email --------------------------------------------------------------------
def _cards(game, assignment) -> list[dict]:
    """A seat's cards as [{"name", "text"}] (a player type's text: the team it plays for)."""
    return [{"name": c.name, "text": c.summary} for c in seat_cards(game.ruleset, assignment)]


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
            "phase": game.phase,
            "paused": game.paused_at is not None,
            "url": role_url(game),
            "game_url": game_url(game),
        }
        # A seat taken over (W-72): its newcomer joins a game under way, in this phase.
        replaced = {
            data.get("player")
            for data in GameEvent.objects.filter(
                game=game, kind="replaced", audience=GameEvent.Audience.PUBLIC
            ).values_list("data", flat=True)
        }
        messages = []
        for seat in seats:
            if not seat.user.email_phase_changes:
                continue
            # Once per occupant of a seat: a replacement (W-72) gets the seat's cards too.
            if _record_once(game, seat, EmailSent.Kind.ROLE, f"user {seat.user_id}"):
                cards = _cards(game, seat.assignment)
                seat_context = {
                    **context,
                    "seat": seat,
                    "cards": cards,
                    "replacing": seat.name in replaced,
                }
                messages.append(message_build(seat.user, "role", seat_context, "phases"))
        send_after_commit(messages)
    return len(messages)
