"""Who may do and see what: predicates only, no writes.

Room access is computed from the seat (never the user), so a replacement inherits a room
at once and the replaced player loses it at once; the dead lose a meeting at once.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.engine import ALIVE, REMOVED

from .mapping import engine_state
from .models import Seat, SeatTenure

# The afterlife's room key (W-17; the Werewolf graveyard, WW-17).
AFTERLIFE = "afterlife"


# Granted in the admin (on a user or a group): the moderation of every game. Staff status
# alone only opens the admin site; a superuser has every permission, this one included.
MODERATE_ANY_GAME = "games.moderate_any_game"


# Who may open games ("games | game | Can add game"): granted in the admin on a user or a
# group, or with `manage.py host_grant` (docs/hosting.md); the first sign-up on a site
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


# --- one seat a game (issue 25) -----------------------------------------------------------
# A player who held a seat has seen its cards and its rooms (a werewolf knows the pack, an
# Elder the Coven): once out of it, whether replaced (the moderator's replace or an
# accepted offer), out after asking to leave, or removed (W-72: a removed player keeps the
# seat row), they may not come back on another seat of the same game, nor volunteer for
# it or be offered one. "Held" is read from the seat rows (whoever sits now, the removed
# included) and the tenures (whoever sat since the deal: replacing closes the leaver's).
#
# Before the deal nothing is known: a member who gives back an open game's sign-up
# (signups.game_leave) has their seat and its tenure deleted, so they have held nothing
# and may sign up again. Only a seat taken in an open game or since its deal counts.
def seat_held_q(game, field: str = "user_id") -> Q:
    """A filter on `field` (a user id) for the members who hold or have held a seat of
    `game` (two subqueries, no query of its own): exclude with it for those who may still
    be offered one."""
    return Q(**{f"{field}__in": Seat.objects.filter(game=game).values("user_id")}) | Q(
        **{f"{field}__in": SeatTenure.objects.filter(seat__game=game).values("user_id")}
    )


def has_held_seat(game, user) -> bool:
    """Whether `user` holds a seat of `game` or has held one since they signed up (dealt
    in, replacing, then replaced out, asking to leave or removed): one query. Such a member
    may take no other seat of the game (issue 25)."""
    if not user.is_authenticated:
        return False
    return Seat.objects.filter(game=game).filter(Q(user=user) | Q(tenures__user=user)).exists()


def moderates_every_game(user) -> bool:
    """Whether `user` holds games.moderate_any_game: the answer of
    `user.has_perm("games.moderate_any_game")` (active users only; a superuser holds every
    permission; a grant on the user or on one of their groups). Every game page asks it of
    every signed-in viewer: the member the request signed in comes with the answer read
    with their row (`moderation_granted`, accounts/backends.py), so it costs no query; any
    other user object (the admin's, a service's, a test's) is asked in one query, kept on
    it for the rest of the request."""
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    held = getattr(user, "_moderates_every_game", None)
    if held is None:
        held = _moderation_grants().filter(Q(user=user) | Q(group__user=user)).exists()
        user._moderates_every_game = held
    return held


def moderation_granted(user_ref: str = "pk") -> Exists:
    """Whether games.moderate_any_game is granted to the user `user_ref` names, on their
    own account or through one of their groups, as an expression: annotated on the
    member's row as `_moderates_every_game`, it answers `moderates_every_game` (which
    weighs active and superuser itself) with no query of its own."""
    user = OuterRef(user_ref)
    return Exists(_moderation_grants().filter(Q(user=user) | Q(group__user=user)))


def _moderation_grants() -> QuerySet:
    app_label, codename = MODERATE_ANY_GAME.split(".")
    return Permission.objects.filter(content_type__app_label=app_label, codename=codename)


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
    return rooms_in_state(state or engine_state(game), seat.name)


def rooms_in_state(state, name) -> list[str]:
    """The room keys seat `name` may use in engine state `state`: its meetings (W-26a),
    then the afterlife (W-17). The live pages ask it of the state now; the game viewer of
    the state at each moment of a finished game, so both read one rule."""
    keys = [k for k, members in state.meetings().items() if name in members]
    if in_afterlife(state, name):
        keys.append(AFTERLIFE)
    return keys
