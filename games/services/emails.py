"""Which game emails go out, and to whom: deadline reminders, phase changes, the role
email, a new result's word, and turning a preference off. games/mail.py builds and sends
each one.

Who gets what:
- reminders (Game.reminder_hours before each deadline; User.email_deadline_reminders):
  the seats the phase still waits for (games/turns.py `awaited`): living players with no
  vote by day, seats with a night duty that submitted nothing by night, the dead
  included when the afterlife has a vote to cast. A day reminder carries the public vote
  count; a night reminder carries no count, as night votes are secret;
- phase changes (User.email_phase_changes): night falls, the morning's announcements,
  the end of the game; public announcements only;
- the role email when a game starts (also User.email_phase_changes, since it is the
  first phase change): the seat's own cards, to the seat's own address only;
- a new result (User.email_results, opt-in): that a phase's end left the seat a result
  on its role page (MEMBER_TOLD "result"), with the link and never the result.

Each email goes out at most once: it is claimed by an EmailSent row, whose unique
constraint settles it whoever else gets there, written in the same transaction as its
pending GameEmail row (games/mail.py `send_after_commit`; services/outbox.py sends it once
that commits).

The emails are rendered without the game's row lock, which every vote and post waits on
(a 48-seat dawn would otherwise stall the votes while 48 emails render). A send is three
steps:
1. Decide, in a short transaction with the game row locked: who gets what, read as it
   stands under the lock, as the rows and plain values the templates need. Nothing is
   rendered and nothing written (a reminder aside, below). The emails already claimed are
   left out, so a task run twice, or a replacement's role email, renders no more than is new.
2. Render each email (mail.message_build), with no transaction open.
3. Claim and write, in a second short transaction, without the game's lock: each email's
   EmailSent row, then the claimed ones' GameEmail rows. The claim keeps an email to once
   without the lock: a rival that claimed it first (committed, or still in flight, which
   the insert waits for) makes ours an IntegrityError, and that email is dropped. As
   nothing is claimed before this step, a worker that dies in between leaves no email
   claimed but unwritten: whatever runs it again (a retried task, the next reminder
   sweep) sends it.
A reminder is decided under the reminder sweep's claim of the game (sweep.reminder_tick),
which holds the game back from the other sweeps while it renders (`RENDER_LEASE`, in
Game.next_reminder_at). Its step 3 takes the game row again, briefly, to mark the reminder
time done (Game.reminders_sent) with the claims, once it has checked that the reminder is
still the one due (same phase and deadline, running, not paused); else it writes nothing
and the sweep decides afresh.
"""

from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from django.db import IntegrityError, transaction

from accounts.language import lazy_words
from accounts.models import User
from games.engine import Phase

from .. import deadlines, turns
from ..mail import PREFERENCES, game_url, message_build, role_url, send_after_commit
from ..mapping import engine_state
from ..models import EmailSent, Game, GameEvent, Seat
from ..narration import describe_event, seat_cards
from ..queue import member_told
from ..selectors.seats import display_names, seats_public
from ..selectors.votes import vote_count

# How long a reminder being rendered keeps the other reminder sweeps off its game; a
# worker that dies meanwhile delays the reminder by this much, never loses it.
RENDER_LEASE = timedelta(minutes=2)


def email_preference_off(*, user, preference: str) -> None:
    """Turn one email preference off (the profile page turns it back on)."""
    field, _ = PREFERENCES[preference]
    User.objects.filter(pk=user.pk).update(**{field: False})


# --- the three steps ---------------------------------------------------------------------
class Claim(NamedTuple):
    """What EmailSent records of one email (its unique constraint's columns)."""

    seat_id: int
    kind: str
    phase: str
    hours: int = 0


class Draft(NamedTuple):
    """One email decided (step 1), not yet rendered: its claim and message_build's arguments."""

    claim: Claim
    user: User
    template: str
    context: dict
    preference: str


def _claimed(game, kind, **where) -> set[Claim]:
    """The game's emails of `kind` already claimed (step 1 leaves them out)."""
    rows = EmailSent.objects.filter(game=game, kind=kind, **where)
    return {Claim(*row) for row in rows.values_list("seat_id", "kind", "phase", "hours")}


def _render(drafts) -> list[tuple[Claim, object]]:
    """Step 2: each draft's email, rendered after the deciding transaction: no lock held."""
    return [(d.claim, message_build(d.user, d.template, d.context, d.preference)) for d in drafts]


def _record_once(game, claim: Claim) -> bool:
    """Record that this email goes out; False when it already did (or is going)."""
    try:
        with transaction.atomic():
            EmailSent.objects.create(game=game, **claim._asdict())
    except IntegrityError:
        return False
    return True


def _claim_and_write(game, rendered, *, expires_at=None) -> int:
    """Step 3: claim each rendered email and write the claimed ones to the outbox, in one
    transaction; returns how many."""
    if not rendered:
        return 0
    with transaction.atomic():
        messages = [message for claim, message in rendered if _record_once(game, claim)]
        send_after_commit(messages, expires_at=expires_at)
    return len(messages)


# --- reminders -------------------------------------------------------------------------
@dataclass
class Reminders:
    """A reminder decided (step 1), for reminders_write."""

    game: Game  # as it stood under the lock
    hours: int
    drafts: list[Draft]
    told: list[int]  # every awaited member's id, whatever they take by email (MEMBER_TOLD)


def reminders_decide(*, game: Game, now) -> Reminders | None:
    """Step 1 of the reminders due in `game` (claimed and locked by sweep.reminder_tick):
    the emails to render, or None when there are none. When several reminder times are
    due at once (the deadline was moved earlier, or the clock was down), one email goes
    out, for the nearest; the others are marked done with it."""
    due = deadlines.due_reminders(game, now)
    # Once the deadline itself has passed, the clock resolves the phase instead.
    drafts, told = (
        _reminder_drafts(game, due[-1], now) if due and game.deadline_at > now else ([], [])
    )
    if not drafts:
        _reminders_done(game, due, told)
        return None
    game.next_reminder_at = now + RENDER_LEASE  # reminders_write sets it right
    game.save(update_fields=["next_reminder_at"])
    return Reminders(game, due[-1], drafts, told)


def _reminder_drafts(game, hours, now) -> tuple[list[Draft], list[int]]:
    """The emails of a reminder, and every member it reminds (by email or not)."""
    state = engine_state(game)
    seats = seats_public(game)
    count = vote_count(state) if not state.night else None
    context = {
        "game": game,
        "deadline_at": game.deadline_at,
        "midnight_at": game.midnight_at,
        "left": deadlines.remaining(game, now),
        "count": count,
        "names": display_names(seats),
        "url": game_url(game) if count else role_url(game),
    }
    done = _claimed(game, EmailSent.Kind.REMINDER, phase=game.phase, hours=hours)
    drafts, told = [], []
    for seat in seats:
        if not turns.awaited(state, seat.name):
            continue
        claim = Claim(seat.pk, EmailSent.Kind.REMINDER, game.phase, hours)
        if claim in done:
            continue
        told.append(seat.user_id)
        if seat.user.email_deadline_reminders:
            seat_context = {**context, "seat": seat, "living": state.seat(seat.name).living}
            drafts.append(Draft(claim, seat.user, "reminder", seat_context, "reminders"))
    return drafts, told


def _reminders_done(game, due, told=()) -> None:
    """The reminder times `due` are done; each member in `told` is told once (the times
    marked done keep it to once, as the claims do for the emails)."""
    for user_id in told:
        member_told(user_id=user_id, game=game, kind="reminder")
    game.reminders_sent = sorted({*(game.reminders_sent or ()), *due}, reverse=True)
    game.next_reminder_at = deadlines.next_reminder_at(game)
    game.save(update_fields=["reminders_sent", "next_reminder_at"])


def reminders_write(decided: Reminders, *, now) -> int:
    """Steps 2 and 3 of `decided`, once the sweep's claim has let the game go: returns
    how many emails were queued (none when the game moved on while they rendered)."""
    rendered = _render(decided.drafts)
    then = decided.game
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=then.pk).first()
        if game is None:
            return 0
        due = deadlines.due_reminders(game, now)
        if not (
            due
            and due[-1] == decided.hours
            and (game.phase, game.deadline_at) == (then.phase, then.deadline_at)
            and game.status == Game.Status.RUNNING
            and game.paused_at is None
        ):
            # What was rendered no longer holds: the sweep decides again.
            game.next_reminder_at = deadlines.next_reminder_at(game)
            game.save(update_fields=["next_reminder_at"])
            return 0
        _reminders_done(game, due, decided.told)
        return _claim_and_write(game, rendered, expires_at=game.deadline_at)  # "ends in 6 hours"


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
            # The same words as the public thread's system posts, worded in each
            # recipient's language when their email is rendered.
            lines.append(lazy_words(describe_event, row.kind, row.data, names))
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
        done = _claimed(game, kind, phase=phase)
        drafts = []
        for seat in seats:
            claim = Claim(seat.pk, kind, phase)
            if seat.user.email_phase_changes and claim not in done:
                drafts.append(Draft(claim, seat.user, "phase", {**context, "seat": seat}, "phases"))
    return _claim_and_write(game, _render(drafts))


# --- the role email --------------------------------------------------------------------
def _cards(game, assignment) -> list[dict]:
    """A seat's cards as [{"name", "text"}] (a player type's text: the team it plays for),
    worded in the recipient's language when their email is rendered."""

    def words(index: int, part: str) -> str:
        card = seat_cards(game.ruleset, assignment)[index]
        return str(card.name if part == "name" else card.summary)

    count = len(seat_cards(game.ruleset, assignment))
    return [
        {"name": lazy_words(words, i, "name"), "text": lazy_words(words, i, "text")}
        for i in range(count)
    ]


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
        done = _claimed(game, EmailSent.Kind.ROLE)
        drafts = []
        for seat in seats:
            # Once per occupant of a seat: a replacement (W-72) gets the seat's cards too.
            claim = Claim(seat.pk, EmailSent.Kind.ROLE, f"user {seat.user_id}")
            if not seat.user.email_phase_changes or claim in done:
                continue
            seat_context = {
                **context,
                "seat": seat,
                "cards": _cards(game, seat.assignment),
                "replacing": seat.name in replaced,
            }
            drafts.append(Draft(claim, seat.user, "role", seat_context, "phases"))
    return _claim_and_write(game, _render(drafts))


# --- a night's result ------------------------------------------------------------------
def result_email_send(*, game_id: int, user_id: int, phase: str) -> int:
    """Tell a player who wants it (User.email_results) that a new result waits on their
    role page (MEMBER_TOLD "result"): the link, never the result, which the page shows
    them signed in. Once per seat and phase; nothing once the game has moved on."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.phase != phase:
            return 0
        seat = Seat.objects.filter(game=game, user_id=user_id).select_related("user").first()
        if seat is None or not seat.user.email_results:
            return 0
        claim = Claim(seat.pk, EmailSent.Kind.RESULT, phase)
        if claim in _claimed(game, EmailSent.Kind.RESULT, phase=phase, seat=seat):
            return 0
        context = {"game": game, "phase": phase, "seat": seat, "url": role_url(game)}
        draft = Draft(claim, seat.user, "result", context, "results")
    return _claim_and_write(game, _render([draft]))
