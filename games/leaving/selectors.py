"""What deleting an account would do, for the page that asks for it (and the service
that does it: the same facts, so the page says exactly what happens)."""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q

from games.models import Game, Seat
from games.permissions import MODERATE_ANY_GAME


@dataclass
class LeavingFacts:
    running_seats: list = field(default_factory=list)  # Seat, with its game
    open_seats: list = field(default_factory=list)
    hosted_running: list = field(default_factory=list)  # Game
    hosted_open: list = field(default_factory=list)
    finished_games: int = 0
    site_moderators: int = 0
    refusal: str = ""  # narration.REFUSALS' key, or ""


def site_moderators(excluding):
    """The active members who moderate every game (games.moderate_any_game, superusers
    included), but `excluding`: who takes a leaving host's running games."""
    app_label, codename = MODERATE_ANY_GAME.split(".")
    granted = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Q(is_superuser=True)
            | Q(user_permissions__in=granted)
            | Q(groups__permissions__in=granted)
        )
        .exclude(pk=excluding.pk)
        .distinct()
    )


def leaving_facts(user) -> LeavingFacts:
    seats = Seat.objects.filter(user=user).select_related("game").order_by("game_id")
    facts = LeavingFacts(
        running_seats=[s for s in seats if s.game.status == Game.Status.RUNNING],
        open_seats=[s for s in seats if s.game.status == Game.Status.OPEN],
        finished_games=Game.objects.filter(
            Q(seats__user=user) | Q(seats__tenures__user=user), status=Game.Status.FINISHED
        )
        .distinct()
        .count(),
    )
    hosted = list(Game.objects.filter(host=user).exclude(status=Game.Status.FINISHED))
    facts.hosted_running = [g for g in hosted if g.status == Game.Status.RUNNING]
    facts.hosted_open = [g for g in hosted if g.status == Game.Status.OPEN]
    facts.site_moderators = site_moderators(user).count() if facts.hosted_running else 0
    if user.left_at is not None:
        facts.refusal = "gone"
    elif facts.hosted_running and not facts.site_moderators:
        facts.refusal = "no_moderator"
    return facts
