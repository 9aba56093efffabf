"""The anonymous games' panels on the desk: the host's choice while the game is open
("signups"), and the member behind each alias for the moderator ("seat")."""

from dataclasses import dataclass

from games import panels
from games.models import Game

from .forms import FIELD, AnonymityForm, new_game_choices
from .selectors import anonymity_of, members_behind


@dataclass
class AnonymityDesk:
    form: AnonymityForm
    anonymous: bool


def anonymity_shown(*, game, values, **_):
    if game.status != Game.Status.OPEN:
        return None
    found = anonymity_of(game)
    initial = {"theme": found.theme, "names": found.names} if found else {}
    return AnonymityDesk(
        values.get("anonymity_form") or AnonymityForm(initial=initial), bool(found)
    )


def members_shown(*, game, **_):
    """The moderator's "Elm — Ann": user id -> player name, for the aliased seats."""
    if game.status != Game.Status.RUNNING:
        return None
    return members_behind(game) or None


@dataclass
class NewGameChoice:
    field: str
    choices: list
    chosen: str


def new_game_choice(*, request, **_):
    """The new-game form's "Anonymous game" choice, keeping what was posted."""
    return NewGameChoice(FIELD, new_game_choices(), request.POST.get(FIELD, ""))


def register_all() -> None:
    panels.register(panels.NEW_GAME, "fields", "anonymous/_new_game.html", new_game_choice)
    panels.register(panels.DESK, "signups", "anonymous/_desk.html", anonymity_shown, order=200)
    panels.register(panels.DESK, "seat", "anonymous/_desk_member.html", members_shown, order=10)
