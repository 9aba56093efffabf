"""Every write to a game. Each service is one transaction that locks the game row first,
lets the engine decide, and stores what it said; a refused input stores nothing."""

import logging
import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.engine import GameRuleError, RecordError, parse_input

from . import deadlines, turns
from .deal import deal_cards, deal_problems
from .mapping import engine_state, remember_state, store_events
from .models import Assignment, EmailSent, Game, GameEvent, GameInput, PhaseLockIn, Post, Seat
from .posts import clean_body, render_markdown

logger = logging.getLogger(__name__)

# Public engine events that become system posts in the public thread.
THREAD_EVENTS = ("phase", "lynch", "death", "survival", "public", "game_over")


class SetupProblems(GameRuleError):
    """A game that cannot be created as asked; `problems` lists every reason."""

    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def game_locked(game):
    # Every write locks the game row first: two writers to one game queue here, and each
    # re-reads the state the other left (SQLite ignores the lock but serialises writes).
    return Game.objects.select_for_update().get(pk=game.pk)


# --- creating and starting --------------------------------------------------------------
@transaction.atomic
def game_create(
    *,
    host,
    ruleset: str,
    title: str,
    seats_count: int,
    deal: dict,
    options: dict | None = None,
    day_length: timedelta | None = None,
    night_length: timedelta | None = None,
    seed: int | None = None,
    early_end: bool = False,
    reminder_hours: list[int] | None = None,
) -> Game:
    # The seed decides the deal (deal.py) and the announcement order (W-13), which the
    # players see: from a small seed space a player could search for the seeds that fit
    # their own cards and the mornings, and so learn every card. 63 bits fits the column.
    seed = secrets.randbelow(2**63) if seed is None else seed
    problems = deal_problems(ruleset, deal, seats_count, seed)
    if [p for p in problems if not p.startswith("Warning")]:
        raise SetupProblems(problems)
    game = Game(
        ruleset=ruleset,
        title=title.strip(),
        host=host,
        seats_count=seats_count,
        seed=seed,
        deal=deal,
        options=options or {},
        early_end=early_end,
    )
    if reminder_hours is not None:
        game.reminder_hours = reminder_hours  # checked by full_clean below
    if day_length:
        game.day_length = day_length
    if night_length:
        game.night_length = night_length
    game.full_clean()
    game.reminder_hours = sorted(game.reminder_hours, reverse=True)  # valid: whole numbers
    game.save()
    return game


@transaction.atomic
def game_join(*, game: Game, user) -> Seat:
    game = game_locked(game)
    if game.status != Game.Status.OPEN:
        raise GameRuleError("this game is no longer open for sign-ups")
    if can_moderate(game, user):
        # The moderator (the host, or staff) sees every card on the desk and may download
        # the record: they cannot also play, as moderation.player_replace says too.
        raise GameRuleError("you moderate this game and cannot take a seat in it")
    if Seat.objects.filter(game=game, user=user).exists():
        raise GameRuleError("you have already joined this game")
    if Seat.objects.filter(game=game).count() >= game.seats_count:
        raise GameRuleError("this game is full")
    return Seat.objects.create(game=game, user=user, name=user.player_key)


@transaction.atomic
def game_leave(*, game: Game, user) -> None:
    game = game_locked(game)
    if game.status != Game.Status.OPEN:
        raise GameRuleError("you can only leave a game before it starts")
    deleted, _ = Seat.objects.filter(game=game, user=user).delete()
    if not deleted:
        raise GameRuleError("you have not joined this game")


def can_moderate(game: Game, user) -> bool:
    return user.is_authenticated and (user.pk == game.host_id or user.is_staff)


@transaction.atomic
def game_start(*, game: Game, by, now=None) -> Game:
    """Deal the cards with the game's seed and open Day 1."""
    game = game_locked(game)
    if not can_moderate(game, by):
        raise GameRuleError("only the game's moderator can start it")
    if game.status != Game.Status.OPEN:
        raise GameRuleError("this game has already started")
    seats = list(Seat.objects.filter(game=game).order_by("joined_at", "pk"))
    if len(seats) != game.seats_count:
        raise GameRuleError(f"{len(seats)} of {game.seats_count} seats are filled")
    setup = deal_cards(game.ruleset, game.deal, [s.name for s in seats], game.seed)
    for position, (seat, player) in enumerate(zip(seats, setup["players"], strict=True)):
        seat.position = position
        seat.save(update_fields=["position"])
        Assignment.objects.create(
            seat=seat,
            character=player.get("character", ""),
            type=player.get("type", ""),
            role=player.get("role", ""),
        )
    game.lovers = setup["lovers"]
    record = {"ruleset": game.ruleset, "seed": game.seed, "options": game.options, **setup}
    try:
        from games.engine import new_game

        state, _ = new_game(record)
    except RecordError as e:  # the deal was checked at creation; this is a bug
        raise RuntimeError(f"game {game.pk} dealt an unplayable setup: {e}") from e
    now = now or timezone.now()
    game.status = Game.Status.RUNNING
    game.started_at = now
    rows = store_events(game, state.events, 0, {s.name: s for s in seats})
    _system_posts(game, rows)
    _sync_clock(game, state, now)
    game.save()
    remember_state(game, state)
    task_queue_on_commit("game_role_emails", game.pk)
    return game


# --- playing ------------------------------------------------------------------------------
def _seat_of(game, user):
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise GameRuleError("you are not playing in this game")
    return seat


@transaction.atomic
def input_apply(
    *,
    game: Game,
    step: dict,
    seat: Seat | None = None,
    by=None,
    now=None,
    expected_phase: str | None = None,
):
    """Apply one engine input to a running game; returns its GameEvent rows, or None when
    `expected_phase` no longer holds (another worker got there first)."""
    game = game_locked(game)
    if game.status != Game.Status.RUNNING:
        raise GameRuleError("this game is not running")
    if expected_phase is not None and game.phase != expected_phase:
        return None
    state = engine_state(game)
    try:
        inp = parse_input(state, step)
    except RecordError as e:
        raise GameRuleError("that is not a valid action") from e
    now = now or timezone.now()
    phase = state.phase
    start = len(state.events)
    state.apply(inp)  # GameRuleError propagates: nothing has been written
    GameInput.objects.create(
        game=game, index=game.inputs_count, step=inp.to_step(), phase=phase, seat=seat, by=by
    )
    game.inputs_count += 1
    rows = store_events(game, state.events[start:], start)
    _system_posts(game, rows)
    _sync_clock(game, state, now)
    game.save()
    remember_state(game, state)
    if game.status == Game.Status.FINISHED:
        task_queue_on_commit("game_phase_emails", game.pk, EmailSent.Kind.END, game.phase, start)
    elif game.phase != phase:
        task_queue_on_commit("game_phase_emails", game.pk, EmailSent.Kind.PHASE, game.phase, start)
    else:
        phase_end_if_ready(game=game, state=state, now=now)
    return rows


def _act(game, user, step):
    seat = _seat_of(game, user)
    return input_apply(game=game, step={"actor": seat.name, **step}, seat=seat, by=user)


def vote_cast(*, game: Game, user, target: str):
    return _act(game, user, {"action": "vote", "target": target})


def vote_withdraw(*, game: Game, user):
    return _act(game, user, {"action": "unvote"})


def action_submit(
    *,
    game: Game,
    user,
    action: str,
    target: str | None = None,
    targets=(),
    guess: str | None = None,
    choice: str | None = None,
):
    """A night action, an ability, a card or a save: the engine says whether it is legal."""
    if action in ("vote", "unvote", "withdraw"):
        raise GameRuleError("that is not an action")
    step = {"action": action}
    if action == "ability":
        step["targets"] = [t for t in targets if t]
        if guess:
            step["guess"] = guess
        if choice:
            step["choice"] = choice
    elif action != "archangel":
        if not target:
            raise GameRuleError("choose a player")
        step["target"] = target
    return _act(game, user, step)


def action_withdraw(*, game: Game, user, what: str):
    return _act(game, user, {"action": "withdraw", "what": what})


def phase_advance(*, game: Game, by=None, expected_phase: str | None = None, now=None):
    """End the current phase now (its deadline passed, or the moderator's "advance now")."""
    if by is not None and not can_moderate(game, by):
        raise GameRuleError("only the game's moderator can advance the game")
    return input_apply(
        game=game, step={"advance": "phase"}, by=by, now=now, expected_phase=expected_phase
    )


def midnight_pass(*, game: Game, expected_phase: str | None = None, now=None):
    return input_apply(
        game=game, step={"advance": "midnight"}, now=now, expected_phase=expected_phase
    )


# --- early end (W-2; games/turns.py says who must be done) ---------------------------------
def _locked_in(game):
    return set(
        PhaseLockIn.objects.filter(game=game, phase=game.phase).values_list("seat__name", flat=True)
    )


def phase_end_if_ready(*, game: Game, state, now) -> bool:
    """W-2: end the phase now, as at its deadline, if the game allows early ends and every
    seat that may still act is done. Call it with the game row locked; `state` is the
    game's engine state. Returns whether the phase ended."""
    if not game.early_end or game.status != Game.Status.RUNNING or game.paused_at:
        return False
    if not turns.is_ready_to_end(state, _locked_in(game)):
        return False
    input_apply(game=game, step={"advance": "phase"}, now=now, expected_phase=game.phase)
    return True


@transaction.atomic
def phase_lock_in(*, game: Game, user, now=None) -> bool:
    """The seat says it is done for this phase; returns whether that ended the phase.
    Its votes and actions stay as they are and can still change until the phase ends."""
    game = game_locked(game)
    if not game.early_end:
        raise GameRuleError("this game's phases run to their deadlines")
    if game.status != Game.Status.RUNNING:
        raise GameRuleError("this game is not running")
    seat = _seat_of(game, user)
    state = engine_state(game)
    if not turns.can_lock_in_now(state):
        raise GameRuleError("a night never ends before its midnight: say so after midnight")
    if not turns.may_act(state, seat.name):
        raise GameRuleError("you have nothing to decide in this phase")
    PhaseLockIn.objects.get_or_create(game=game, seat=seat, phase=game.phase)
    return phase_end_if_ready(game=game, state=state, now=now or timezone.now())


@transaction.atomic
def phase_lock_out(*, game: Game, user) -> None:
    """The seat takes back its "done": the phase waits for it again."""
    game = game_locked(game)
    seat = _seat_of(game, user)
    deleted, _ = PhaseLockIn.objects.filter(seat=seat, phase=game.phase).delete()
    if not deleted:
        raise GameRuleError("you have not said you are done in this phase")


@transaction.atomic
def post_create(*, game: Game, user, body: str, reply_to: int | None = None) -> Post:
    """A player's post in the public thread: living players, by day."""
    game = game_locked(game)
    seat = _seat_of(game, user)
    if game.status == Game.Status.OPEN:
        raise GameRuleError("the thread opens when the game starts")
    if game.status == Game.Status.RUNNING:
        state = engine_state(game)
        if not state.seat(seat.name).living:
            raise GameRuleError("the dead cannot post in the public thread")
        if state.night:
            raise GameRuleError("nobody posts in the public thread at night")
    body = clean_body(body)
    parent = None
    if reply_to is not None:
        parent = Post.objects.filter(game=game, thread="public", number=reply_to).first()
        if parent is None:
            raise GameRuleError(f"there is no post #{reply_to} to reply to")
    return Post.objects.create(
        game=game,
        thread="public",
        number=post_number_next(game),
        kind=Post.Kind.PLAYER,
        seat=seat,
        author=user,
        body=body,
        body_html=render_markdown(body),
        reply_to=parent,
        phase=game.phase,
    )


# --- helpers ----------------------------------------------------------------------------
def post_number_next(game, thread="public"):
    top = Post.objects.filter(game=game, thread=thread).aggregate(n=Max("number"))["n"]
    return (top or 0) + 1


def _system_posts(game, rows):
    number = None
    posts = []
    for row in rows:
        if row.audience != GameEvent.Audience.PUBLIC or row.kind not in THREAD_EVENTS:
            continue
        number = post_number_next(game) if number is None else number + 1
        posts.append(
            Post(
                game=game,
                thread="public",
                number=number,
                kind=Post.Kind.SYSTEM,
                event=row,
                phase=game.phase or row.phase,
            )
        )
    Post.objects.bulk_create(posts)


def moderator_notice_create(game, by, body):
    """A moderator's post in the public thread saying what they did to the game (a pause,
    an extension). Call it with the game row locked."""
    return Post.objects.create(
        game=game,
        thread="public",
        number=post_number_next(game),
        kind=Post.Kind.MODERATOR,
        author=by,
        body=body,
        body_html=render_markdown(body),
        phase=game.phase,
    )


def task_queue_on_commit(name, *args):
    """Run a task from games/tasks.py once this transaction commits (never for a write
    that rolled back); the broker being down must not undo the write."""
    from games import tasks

    def send():
        try:
            getattr(tasks, name).delay(*args)
        except Exception:  # logged: the write itself has committed
            logger.exception("could not queue %s%r", name, args)

    transaction.on_commit(send)


def _sync_clock(game, state, now):
    """Deadlines follow the engine's phase: a new phase gets its full length (W-2), a night
    its midnight halfway (W-3) (games/deadlines.py); a finished game has none."""
    if state.over:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.winner = state.winner or ""
        game.phase = state.phase
        game.deadline_at = game.midnight_at = game.next_reminder_at = None
        game.paused_at = None
        return
    if state.phase != game.phase:
        game.phase = state.phase
        deadlines.open_phase(game, now)
    if state.night and state.midnight:
        game.midnight_at = None
