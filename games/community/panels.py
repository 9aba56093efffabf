"""The community's panels on the core's pages (games/panels.py), each a provider that
reads (selectors) and the partial that shows it:

- GAME "player": each player's absence now or to come, in the player list (no note);
- GAME "signup": an open game's sign-up facts; "signup_refusal": why the viewer may not
  sign up (the game's bar of finished games);
- DESK "signups": an open game's sign-ups, their settings, the size and cancelling;
- DESK "seat": each seat's player's absence, with its note (the moderator's alone);
- DESK "replacements": a running game's activity, replacements and volunteers;
- ROLE "leave": a living player's "ask to be replaced".
"""

from dataclasses import dataclass

from django.utils import timezone

from games import panels
from games.forms import signup_settings_form
from games.models import Game

from .selectors.absences import absences_shown, absences_shown_cached
from .selectors.activity import desk_activity
from .selectors.signups import SignupPanel, signup_refusal, signups_desk


# --- the game page ---------------------------------------------------------------------------
def players_away(*, game, seats, **_):
    """Each player's absence now or to come (absences.Away by user id, the note left out:
    it is for the moderator); None once the game is over. From the cache: every reader of
    the page asks it, so no query while the site's absences stay as they are."""
    if game.status == Game.Status.FINISHED:
        return None
    away = absences_shown_cached([s.user_id for s in seats], timezone.now())
    for each in away.values():
        each.note = ""
    return away


def signup_facts(*, game, seats, **_):
    if game.status != Game.Status.OPEN:
        return None
    return SignupPanel(filled=len(seats), seats=game.seats_count)


def signup_refused(*, game, user, viewer_seat, **_):
    if game.status != Game.Status.OPEN:
        return None
    return signup_refusal(game, user, viewer_seat is not None)


# --- the moderator's desk -------------------------------------------------------------------
@dataclass
class SignupsDesk:
    desk: object  # selectors.signups.SignupDesk
    form: object  # the sign-up settings form (as typed, after a refusal)


def signups_shown(*, game, values, now, **_):
    """Before the start: who signed up (and who will be away), and the sign-up controls."""
    if game.status != Game.Status.OPEN:
        return None
    form = values.get("signup_form") or signup_settings_form(game)
    return SignupsDesk(signups_desk(game, now), form)


def seats_away(*, game, seats, now, **_):
    """A running game's players' absences now or to come, notes included. One query."""
    if game.status != Game.Status.RUNNING:
        return None
    return absences_shown([s.user_id for s in seats], now)


def replacements_shown(*, game, now, **_):
    """Issue 16: a running game's activity, replacements and volunteers."""
    if game.status != Game.Status.RUNNING:
        return None
    return desk_activity(game, now)


# --- the role page --------------------------------------------------------------------------
@dataclass
class LeaveAsk:
    living: bool


def leave_offered(*, living, **_):
    return LeaveAsk(living)


def leave_on_game_page(*, game, viewer_seat, **_):
    """The game page's own seat panel offers it too, where a player looks (the page shows
    the slot to a living player only; the confirmation is the role page's)."""
    if game.status != Game.Status.RUNNING or viewer_seat is None:
        return None
    return LeaveAsk(True)


def register_all() -> None:
    """Register the community's providers (called from the app's ready())."""
    panels.register(panels.GAME, "player", "community/_player_away.html", players_away)
    panels.register(panels.GAME, "signup", "community/_signup_facts.html", signup_facts)
    panels.register(panels.GAME, "signup_refusal", "community/_signup_refusal.html", signup_refused)
    panels.register(panels.DESK, "signups", "community/_signups_desk.html", signups_shown)
    panels.register(panels.DESK, "seat", "community/_desk_seat_away.html", seats_away)
    panels.register(
        panels.DESK, "replacements", "community/_desk_replacements.html", replacements_shown
    )
    panels.register(panels.ROLE, "leave", "community/_leave_ask.html", leave_offered)
    panels.register(panels.GAME, "seat_leave", "community/_seat_leave.html", leave_on_game_page)
