"""The prod rule (issue 16): in a day phase of a game with `Game.prod_after` set, a living
seat whose player has been silent that long is prodded: an email to the player (in their
zone, if they take deadline reminders), a notification to them and to the moderator. The
next such lapse is the second prod, which marks the seat for replacement
(services/replacements.py). The dead, the offstage and a seat already marked are never
prodded.

Silent since the latest of: the player's last post in the public thread
(Seat.last_post_at), the day's start, their last prod, when they took the seat, the
clock's last restart after a pause (nobody is prodded for a pause's silence), and the
end of an absence they declared (models.Absence): prods wait for the absent.

The clock's sweep claims a game whose `prods_due_at` has come (community/ticks.py
`prod_tick`, `skip_locked`), sends what is due and sets the next `prods_due_at`, so each
prod goes out once; Prod's unique (seat, user, number) is the backstop.
"""

from django.db import IntegrityError, transaction
from django.db.models import Count, Max

from games.mail import game_url, message_build, send_after_commit
from games.mapping import engine_state
from games.models import Absence, Game, Notification, Prod, Seat, SeatTenure
from games.services.inbox import notifications_write

from ..narration import prod_words
from ..selectors.absences import away_until
from .replacements import seat_mark

PRODS_MAX = 2  # the second marks the seat for replacement


def prods_send(*, game: Game, now) -> int:
    """Prod the silent players of `game` now and set when to look again; returns how many
    prods went out. Call it with the game row locked (the sweep's claim)."""
    game.prods_due_at = None
    if game.status == Game.Status.RUNNING and not game.is_night and game.prod_after:
        sent, game.prods_due_at = _prod_silent(game, now)
    else:
        sent = 0
    game.save(update_fields=["prods_due_at"])
    return sent


def _prod_silent(game, now):
    state = engine_state(game)
    seats = [
        s
        for s in Seat.objects.filter(game=game, replacement_wanted_at__isnull=True).select_related(
            "user"
        )
        if state.seat(s.name).living
    ]
    if not seats:
        return 0, None
    users = [s.user_id for s in seats]
    prods = {
        (r["seat_id"], r["user_id"]): (r["n"], r["last"])
        for r in Prod.objects.filter(seat__in=seats)
        .values("seat_id", "user_id")
        .annotate(n=Count("id"), last=Max("created_at"))
    }
    took = dict(
        SeatTenure.objects.filter(
            seat__in=seats, ended_at__isnull=True, replacing=True
        ).values_list("seat_id", "began_at")
    )
    away = away_until(users, now)
    back = dict(
        Absence.objects.filter(
            user_id__in=users, ends_at__lte=now, ends_at__gt=now - game.prod_after
        )
        .values_list("user_id")
        .annotate(last=Max("ends_at"))
    )
    sent, next_due = 0, None
    for seat in seats:
        number, last_prod = prods.get((seat.pk, seat.user_id), (0, None))
        if number >= PRODS_MAX:
            continue
        if seat.user_id in away:
            due = away[seat.user_id] + game.prod_after
        else:
            since = (
                seat.last_post_at,
                game.phase_started_at,
                game.clock_resumed_at,
                last_prod,
                took.get(seat.pk),
            )
            due = max(t for t in (*since, back.get(seat.user_id)) if t) + game.prod_after
        if due <= now and _prod(game, seat, number + 1, now):
            sent += 1
            if number + 1 == PRODS_MAX:
                continue
            due = now + game.prod_after
        if due > now:
            next_due = due if next_due is None else min(next_due, due)
    return sent, next_due


def _prod(game, seat, number, now) -> bool:
    """Prod `seat`'s player (the `number`th time): False when that prod exists already."""
    try:
        with transaction.atomic():  # a savepoint: a refusal leaves the sweep's work intact
            prod = Prod.objects.create(seat=seat, user=seat.user, number=number, phase=game.phase)
    except IntegrityError:
        return False
    name, phase = seat.shown_name, game.phase
    notifications_write(
        game,
        [
            (
                seat.user_id,
                Notification.Kind.PROD,
                f"prod-{prod.pk}",
                prod_words(number, phase, you=True),
            ),
            (
                game.host_id,
                Notification.Kind.PROD,
                f"prod-{prod.pk}",
                prod_words(number, phase, name=name, you=False),
            ),
        ],
    )
    if seat.user.email_deadline_reminders:
        context = {
            "game": game,
            "number": number,
            "silent": game.prod_after,
            "deadline_at": game.deadline_at,
            "url": game_url(game),
        }
        message = message_build(seat.user, "prod", context, "reminders")
        send_after_commit([message], expires_at=game.deadline_at)  # "please post" in time
    if number == PRODS_MAX:
        seat_mark(game, seat, reason="prods", now=now)
    return True
