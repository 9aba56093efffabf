"""The core's events, and the one seam between a write and whatever follows from it.

A write announces what happened (`emit(PHASE_BEGAN, game=game, ...)`) and never names
who listens. Any number of receivers connect to an event when their app is ready:

- `connect(EVENT, receiver)` runs `receiver(**payload)` inside the write's transaction:
  its rows commit or roll back with the write, and an error refuses the write. What it
  returns comes back from `emit`, in connection order (the sweep's "is work left?").
- `connect(EVENT, receiver, on_commit=True)` runs it once the write has committed (queue
  a task, call a webhook): an error is logged, the write stands, and a write that rolls
  back calls nothing.
- `refine(EVENT, value, **payload)` passes `value` through each receiver in turn, which
  returns it changed or as it was: a post's body before it is stored, the start post's
  words, what a thread page opens on.

Named jobs are the Celery side of it: a receiver asks `after_commit("game_role_emails",
id)` and games/tasks.py (or a capability's tasks module) connects the name to its task
with `connect_job`. So the services never import the Celery layer.

A capability adds a receiver with one module and one `connect` line in its AppConfig's
`ready()` (docs/architecture.md).
"""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

logger = logging.getLogger(__name__)

# --- the core's events: the name, and what each carries as keyword arguments -----------------
# a game was created, open for sign-ups, in the transaction that creates it: game, extras
# (what the new-game form's capability fields posted, e.g. the anonymous games' list; {}).
# A receiver may refuse its own fields with a GameRuleError: no game is made, the form says why
GAME_OPENED = "game_opened"
# in the transaction that deals the cards, before the first post: game, setup (deal.py's)
GAME_DEALT = "game_dealt"
# the start's system post is about to be written (refine: the Post, unsaved): game, rows
START_POST = "start_post"
# a game has started, Day 1 open: game, seats
GAME_STARTED = "game_started"
# any input applied (votes, actions, the clock's, the moderator's): game, phase (the one it
# was applied in), state (the engine's, after it), rows (its GameEvent rows)
INPUT_APPLIED = "input_applied"
# a new phase began: game, phase (the new one), first_event (its first event's index)
PHASE_BEGAN = "phase_began"
# the game is over: game, first_event (the index of the events that ended it)
GAME_ENDED = "game_ended"
# a post's body before the game row is locked (refine: services.posts.PostBody): game
POST_BODY = "post_body"
# a player's post was stored, in the public thread or a room: game, post, body (PostBody)
POST_CREATED = "post_created"
# a member asks for a seat of an open game, the game row locked and the core's own checks
# passed (open, not its moderator, no seat held before, not full): game, user. A receiver
# refuses the seat by raising GameRuleError in words the member reads (a game's bar)
SEAT_WANTED = "seat_wanted"
# the name a seat taken in an open game gets, before it is stored (refine: (name, alias),
# the record's name and the seat's alias; the member's player key and "" unless a
# capability names it otherwise): game, user
SEAT_NAMING = "seat_naming"
# the last seat of an open game was taken (a join), in its transaction: game, now
GAME_FILLED = "game_filled"
# the game page's seats before they are read (refine: selectors.seats.seats_listed's
# QuerySet, which a receiver may annotate, so that its panels cost no query): game, user
GAME_PAGE_SEATS = "game_page_seats"
# a seat changed hands (W-72): game, seat, old (the leaver), new (the newcomer), now
SEAT_CHANGED_HANDS = "seat_changed_hands"
# the clock's sweep is done with its due games: now; a receiver returns True when it left
# work undone (the sweep then asks for one more) and adds its outcomes to `counts`
SWEEP_TICKED = "sweep_ticked"
# the new-game form's first values, asked for by a GET (refine: a dict of initial values, or
# None for the form's own): query (the request's GET, e.g. ?suggested=witchhunt-12), request
NEW_GAME_INITIAL = "new_game_initial"
# a thread page was asked for, before it is made: the public thread, a room, the afterlife,
# a room read from the desk or the afterlife (refine: ThreadOpening): request, game, thread
# (its key). The view answers with the opening's `redirect` when a receiver set one
THREAD_OPENED = "thread_opened"
# that thread page was made, for the viewer of `request`: request, game, thread, posts (the
# selectors' ThreadPage shown), seat (the viewer's, or None), state (the engine's, or None),
# whole_game (the viewer reads every thread: the desk's and the afterlife's read-only rooms)
THREAD_SHOWN = "thread_shown"
# the live refresh appended a thread's new posts to an open page: user, game, thread, upto
# (the number of the last post appended)
POSTS_APPENDED = "posts_appended"
# a member's own data asked for (refine: a dict of sections, each receiver adding its own
# under its name, plain JSON data): user. Only what the member may see: never a card or a
# thread of another seat, nothing that moves with another's hidden input
MEMBER_EXPORT = "member_export"
# a member's account was erased, in its transaction, the row already anonymised (same id,
# "a former member", no address, no password): user, now, by (who erased it: the member or
# an admin). Each receiver removes what it owns of theirs, and hands their seats on
MEMBER_ERASED = "member_erased"
# the site decided to tell one member something of their own, in the transaction that
# decides it (the same moments as the game emails and notifications, whatever the member
# takes by email): user_id, game, kind (TOLD_KINDS). Nothing secret: what there is to read is
# on the page the kind names (the role page, the notifications, the replacements' list)
MEMBER_TOLD = "member_told"
TOLD_KINDS = ("role", "result", "reminder", "mention", "replacement")
# a member would stand in for a seat of a running game: volunteer for it, be offered it, or
# take it over (the moderator's replace, an accepted offer), the game row locked: game, user.
# A receiver refuses by raising GameRuleError in words the member (or moderator) reads
REPLACEMENT_ASKED = "replacement_asked"

EVENTS = (
    GAME_OPENED,
    GAME_DEALT,
    START_POST,
    GAME_STARTED,
    INPUT_APPLIED,
    PHASE_BEGAN,
    GAME_ENDED,
    POST_BODY,
    POST_CREATED,
    SEAT_WANTED,
    SEAT_NAMING,
    GAME_FILLED,
    GAME_PAGE_SEATS,
    SEAT_CHANGED_HANDS,
    SWEEP_TICKED,
    NEW_GAME_INITIAL,
    THREAD_OPENED,
    THREAD_SHOWN,
    POSTS_APPENDED,
    MEMBER_EXPORT,
    MEMBER_ERASED,
    MEMBER_TOLD,
    REPLACEMENT_ASKED,
)


@dataclass
class ThreadOpening:
    """What THREAD_OPENED's receivers refine before a thread page is made (each returns it)."""

    redirect: object = None  # a response the view answers with instead of the page
    last: int | None = None  # the thread's last post number, when a receiver has read it


@dataclass(frozen=True)
class Receiver:
    function: Callable[..., object]
    on_commit: bool


_receivers: dict[str, list[Receiver]] = {event: [] for event in EVENTS}
_jobs: dict[str, Callable[..., object]] = {}


def connect(event: str, receiver: Callable[..., object], *, on_commit: bool = False) -> None:
    """Call `receiver(**payload)` whenever `event` is emitted (once: connecting the same
    function again changes nothing, so an app's `ready()` may run twice)."""
    if event not in _receivers:
        raise ValueError(f"{event!r} is not one of the core's events")
    entry = Receiver(receiver, on_commit)
    if entry not in _receivers[event]:
        _receivers[event].append(entry)


def disconnect(event: str, receiver: Callable[..., object]) -> None:
    _receivers[event] = [r for r in _receivers[event] if r.function is not receiver]


def receivers(event: str) -> list[Receiver]:
    return list(_receivers[event])


def emit(event: str, **payload) -> list:
    """Announce `event`: run its receivers in the transaction now, its on-commit receivers
    after the commit; returns what the former returned, in order."""
    answers = []
    for receiver in _receivers[event]:
        if receiver.on_commit:
            transaction.on_commit(lambda f=receiver.function: _call(event, f, payload))
        else:
            answers.append(receiver.function(**payload))
    return answers


def refine(event: str, value, **payload):
    """`value` passed through each receiver of `event` in turn (each returns it)."""
    for receiver in _receivers[event]:
        value = receiver.function(value, **payload)
    return value


def _call(event, function, payload) -> None:
    try:
        function(**payload)
    except Exception:  # logged: the write itself has committed (a broker may be down)
        logger.exception("a receiver of %s failed after the commit", event)


def member_told(*, user_id: int, game, kind: str) -> None:
    """Announce MEMBER_TOLD: member `user_id` has something of their own to read in
    `game`, of `kind`."""
    if kind not in TOLD_KINDS:
        raise ValueError(f"{kind!r} is not one of the kinds a member is told of")
    emit(MEMBER_TOLD, user_id=user_id, game=game, kind=kind)


# --- named jobs: a Celery task by name, after the commit -------------------------------------
def connect_job(name: str, job: Callable[..., object]) -> None:
    """Let `job(*args)` carry out what `after_commit(name, *args)` asks for."""
    _jobs[name] = job


def after_commit(name: str, *args) -> None:
    """Run the job connected to `name` once this transaction commits."""
    transaction.on_commit(lambda: _send(name, args))


# --- a broker that is down: the job is held, the write stands --------------------------------
# While the broker refuses (Redis down), each job is handed to the holder (games/apps.py:
# services.held_jobs, a row in the database) and queued again by the beat's sweep once the
# broker is back. After a refusal the broker is not tried again for HOLD_SECONDS, so an
# outage costs a request one failed hand-over at most, not one per job.
HOLD_SECONDS = 5.0
_holder: Callable[[str, tuple, Exception], object] | None = None
_broker_errors: tuple[type[Exception], ...] = ()
_broker_down_until = 0.0


def hold_jobs(holder: Callable[[str, tuple, Exception], object], *, errors) -> None:
    """Hand `holder(name, args, error)` the jobs the broker refuses with one of `errors`."""
    global _holder, _broker_errors
    _holder, _broker_errors = holder, tuple(errors)


def job_send(name: str, args) -> None:
    """Queue the job `name(*args)` now; raises when the broker refuses (the held jobs' sweep)."""
    _jobs[name](*args)


def _send(name: str, args: tuple) -> None:
    global _broker_down_until
    job = _jobs.get(name)
    if job is None:
        logger.error("nothing is connected to %s; %r dropped", name, args)
        return
    if time.monotonic() < _broker_down_until:
        _hold(name, args, ConnectionError("the broker refused a job moments ago"))
        return
    try:
        job(*args)
    except _broker_errors as exc:  # the write itself has committed: the job waits
        _broker_down_until = time.monotonic() + HOLD_SECONDS
        _hold(name, args, exc)
    except Exception:  # logged: the write itself has committed
        logger.exception("could not queue %s%r", name, args)


def _hold(name: str, args: tuple, error: Exception) -> None:
    try:
        if _holder is None:
            raise error
        _holder(name, args, error)
    except Exception:
        logger.exception("could not queue %s%r, nor keep it: it is lost", name, args)
