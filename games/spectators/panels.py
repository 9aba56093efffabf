"""What the spectators show on the core's pages:

- NEW_GAME "fields": the host's choices (allow spectators, the delay, the Werewolf dead);
- DESK "spectators": the same choices before the start, then the spectators, each flagged
  when they signed in lately from an address a player of the game signed in from, and the
  links to the spectators' page and thread;
- GAME "spectate" (the seat panel): for a member who may follow, "Spectate"; for a
  spectator, their page, their thread and "Stop spectating"; for a dead Werewolf player
  the host let see, the spectators' page. Nothing for a player or the moderator, so that
  no player's page changes because spectators exist.
"""

from django.utils import timezone

from games import panels
from games.models import Game, Seat
from games.permissions import can_moderate, has_held_seat

from . import selectors
from .forms import SpectatorChoicesForm, choices_initial


def new_game_fields(*, request, **_):
    return {"form": SpectatorChoicesForm(request.POST or None)}


def desk_spectators(*, game, user, **_):
    if not can_moderate(game, user):
        return None
    choices = selectors.choices_of(game)
    data = {"game": game, "choices": choices, "open": game.status == Game.Status.OPEN}
    if data["open"]:
        data["form"] = SpectatorChoicesForm(initial=choices_initial(choices))
    # Spectators exist only where allowed (turning them off before the start lets them go).
    allowed = choices is not None and choices.allowed
    data["spectators"] = selectors.desk_spectators(game, timezone.now()) if allowed else []
    return data


def game_spectate(*, game, user, viewer_seat=None, **_):
    if not user.is_authenticated:
        return None
    choices = selectors.choices_of(game)
    if choices is None or not choices.allowed:
        return None
    if viewer_seat is not None or can_moderate(game, user):
        viewer = selectors.page_viewer(game, user, choices)
        return {"game": game, "dead": True} if viewer == selectors.DEAD else None
    if selectors.is_following(game, user):
        return {"game": game, "following": True}
    if game.status == Game.Status.FINISHED:
        return None
    if has_held_seat(game, user) or Seat.objects.filter(game=game, user=user).exists():
        return None  # a player replaced out of the game: no way in (issue 31)
    return {"game": game, "may_follow": True, "delay": choices.delay}


def register() -> None:
    panels.register(panels.NEW_GAME, "fields", "spectators/_new_game.html", new_game_fields)
    panels.register(panels.DESK, "spectators", "spectators/_desk.html", desk_spectators)
    panels.register(panels.GAME, "spectate", "spectators/_game.html", game_spectate)
