"""Who may do and see what: predicates only, no writes.

Room access is computed from the seat (never the user), so a replacement inherits a room
at once and the replaced player loses it at once; the dead lose a meeting at once.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q, QuerySet

from games.engine.rulesets.base import ALIVE, REMOVED

from .mapping import engine_state

# The afterlife's room key (W-17; the Werewolf graveyard, WW-17).
AFTERLIFE = "afterlife"


# Granted in the admin (on a user or a group): the moderation of every game. Staff status
# alone only opens the admin site; a superuser has every permission, this one included.
MODERATE_ANY_GAME = "games.moderate_any_game"


# Who may open games ("games | game | Can add game"): granted in the admin on a user or a
# group, or with `manage.py host_grant` (README, Hosting); the first sign-up on a site
# without a host gets it (accounts.services.host_grant_if_first).
HOST_GAMES = "games.add_game"


def can_host(user) -> bool:
    return user.is_authenticated and user.has_perm(HOST_GAMES)


def hosts() -> QuerySet:
    """The active users who may host: superusers, and holders of games.add_game on their
    own account or through a group (what `has_perm` answers, for everyone at once)."""
    app_label, codename = HOST_GAMES.split(".")
    granted = Q(content_type__app_label=app_label, codename=codename)
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Q(is_superuser=True)
            | Q(user_permissions__in=Permission.objects.filter(granted))
            | Q(groups__permissions__in=Permission.objects.filter(granted))
        )
        .distinct()
    )


def can_moderate(game, user) -> bool:
    """The game's host moderates it, and so does a user granted games.moderate_any_game
    (and so neither may play in it). Staff status alone moderates nothing."""
    if not user.is_authenticated:
        return False
    return user.pk == game.host_id or moderates_every_game(user)


def moderates_every_game(user) -> bool:
    """Whether `user` holds games.moderate_any_game: the answer of
    `user.has_perm("games.moderate_any_game")` (active users only; a superuser holds every
    permission; a grant on the user or on one of their groups), in one query instead of
    has_perm's two, kept on the user object for the rest of the request. Every game page
    asks it of every signed-in viewer."""
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    held = getattr(user, "_moderates_every_game", None)
    if held is None:
        app_label, codename = MODERATE_ANY_GAME.split(".")
        held = (
            Permission.objects.filter(content_type__app_label=app_label, codename=codename)
            .filter(Q(user=user) | Q(group__user=user))
            .exists()
        )
        user._moderates_every_game = held
    return held


def in_afterlife(state, name) -> bool:
    """A Witchhunt seat in the afterlife, or a dead Werewolf player (who has the graveyard
    thread but sees no more than the living: WW-17)."""
    seat = state.seat(name)
    if seat is None:
        return False
    if state.RULESET == "witchhunt":
        return state.sees_everything(seat)
    return seat.status != ALIVE and seat.status != REMOVED


def rooms_for(game, seat, state=None) -> list[str]:
    """The room keys a seat may read and write now, meetings first, then the afterlife."""
    if seat is None or game.status != game.Status.RUNNING:
        return []  # the rooms open with the game and close at its end (the reveal shows all)
    state = state or engine_state(game)
    keys = [k for k, members in state.meetings().items() if seat.name in members]
    if in_afterlife(state, seat.name):
        keys.append(AFTERLIFE)
    return keys
