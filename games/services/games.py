"""A game's life before play: creating it, joining and leaving it, and the deal that
starts it."""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.engine import GameRuleError, RecordError, new_game

from ..deal import deal_cards, deal_problems
from ..mapping import remember_state, store_events
from ..models import Assignment, Game, Seat
from ..permissions import can_moderate
from ..queue import after_commit
from .base import SetupProblems, game_locked
from .inputs import clock_follow
from .posts import system_posts_create


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
    early_end_grace: timedelta | None = None,
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
    if early_end_grace is not None:
        game.early_end_grace = early_end_grace  # W-2a; checked by full_clean below
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
        # The moderator (the host, or a holder of games.moderate_any_game) sees every card
        # on the desk and may download the record: they cannot also play, as
        # moderation.player_replace says too.
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
        state, _ = new_game(record)
    except RecordError as e:  # the deal was checked at creation; this is a bug
        raise RuntimeError(f"game {game.pk} dealt an unplayable setup: {e}") from e
    now = now or timezone.now()
    game.status = Game.Status.RUNNING
    game.started_at = now
    rows = store_events(game, state.events, 0, {s.name: s for s in seats})
    system_posts_create(game, rows)
    clock_follow(game, state, now)
    game.save()
    remember_state(game, state)
    after_commit("game_role_emails", game.pk)
    return game
