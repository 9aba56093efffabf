"""A game's life before play: creating it and the deal that starts it (signing up and
withdrawing are services/signups.py)."""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.engine import CURRENT_REVISION, GameRuleError, RecordError, new_game

from ..deal import deal_cards, deal_problems, errors_only
from ..mapping import remember_state, store_events
from ..models import SEED_BITS, Assignment, Game, Seat
from ..permissions import can_moderate
from ..queue import GAME_DEALT, GAME_OPENED, GAME_STARTED, emit
from ..signup_rules import signups_start_checked
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
    signups_close_at=None,
    min_finished_games: int = 0,
    start_when_full: bool = False,
    prod_after: timedelta | None = None,
    extras: dict | None = None,
    now=None,
) -> Game:
    # The seed decides the deal (deal.py) and the public orders (W-5a's ties, W-13's
    # announcements), which the players see: from a small seed space a player could search
    # for the seeds that fit their own cards and the mornings, and so learn every card.
    # SEED_BITS (128) from the operating system's generator puts that search out of reach
    # (issue 25); the column keeps any integer exactly (models.SeedField).
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    problems = deal_problems(ruleset, deal, seats_count, seed)
    if errors_only(problems):
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
        min_finished_games=min_finished_games,
        start_when_full=start_when_full,
        prod_after=prod_after,
    )
    if signups_close_at is not None:
        game.signups_close_at = signups_start_checked(signups_close_at, now or timezone.now())
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
    try:  # open for sign-ups; a capability may refuse its own fields of the form
        emit(GAME_OPENED, game=game, extras=extras or {})
    except SetupProblems:
        raise
    except GameRuleError as e:
        raise SetupProblems([e]) from e
    return game


@transaction.atomic
def game_start(*, game: Game, by, now=None) -> Game:
    """The moderator deals the cards with the game's seed and opens Day 1."""
    game = game_locked(game)
    if not can_moderate(game, by):
        raise GameRuleError(gettext("only the game's moderator can start it"))
    return game_deal(game, now=now)


def game_deal(game: Game, *, now=None) -> Game:
    """Deal the cards with the game's seed and open Day 1: the moderator's start, or the
    site's when the last seat is taken (services/signups.py). Call it with the game row
    locked; every seat's player is told in-site (the role email says it by email)."""
    if game.status != Game.Status.OPEN:
        raise GameRuleError(gettext("this game has already started"))
    seats = list(Seat.objects.filter(game=game).order_by("joined_at", "pk"))
    if len(seats) != game.seats_count:
        raise GameRuleError(
            ngettext(
                "%(filled)s of %(count)s seat is filled",
                "%(filled)s of %(count)s seats are filled",
                game.seats_count,
            )
            % {"filled": len(seats), "count": game.seats_count}
        )
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
    # W-76: the game is played to its end under the rulings revision it starts under,
    # this release's, even when it was opened for sign-ups under an earlier one.
    game.revision = CURRENT_REVISION
    emit(GAME_DEALT, game=game, setup=setup)  # before the first post (the fair deal's seal)
    record = {
        "ruleset": game.ruleset,
        "revision": game.revision,
        "seed": game.seed,
        "options": game.options,
        **setup,
    }
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
    emit(GAME_STARTED, game=game, seats=seats)  # the role emails; the players told in-site
    return game
