"""The private role page: the seat's cards, what it has learned, what it may do now.

Only the seat's own user sees it (anyone else gets a 404) and it is never cached.
"""

from dataclasses import dataclass

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import services
from games.engine import TYPES, GameRuleError
from games.forms import ActionForm, WithdrawForm
from games.models import Assignment, Game
from games.narration import (
    ability_label,
    accepted_text,
    action_label,
    coming_labels,
    idle_text,
    seat_cards,
    withdraw_label,
    withdrawn_text,
)
from games.selectors import game_display_names, role_page

from .access import get_seat_for_user
from .feedback import refused


def _cards(game, assignment):
    """The seat's cards as (kind, key, name, ability text, set or team) for the template."""
    return seat_cards(game.ruleset, assignment)


@dataclass
class ActionView:
    """One form of the role page, from an engine Option (engine/options.py)."""

    action: str
    label: str
    targets: list
    slots: list  # one (index, required, current) per target select of an ability
    guesses: list
    choices: list
    current: dict  # the standing submission's target, guess and choice, to preselect


def _current(panel, action):
    """What the seat has standing for this action, so the form shows it selected."""
    value = panel.standing.get(action)
    if isinstance(value, dict):  # an ability or a weapon: an engine step
        return {
            "targets": value.get("targets") or [value.get("target")],
            "target": value.get("target"),
            "guess": value.get("guess"),
            "choice": value.get("choice"),
        }
    return {"target": value, "targets": []}


def _action_views(panel, card):
    out = []
    for o in panel.options:
        if o.action in ("vote", "unvote", "withdraw"):  # votes live on the game page
            continue
        current = _current(panel, o.action)
        if o.action == "ability":
            label = ability_label(card)
            chosen = list(current["targets"]) + [None] * o.hi
            slots = [(i, i < o.lo, chosen[i]) for i in range(o.hi)]
        else:
            label = action_label(o.action)
            slots = []
        out.append(ActionView(o.action, label, o.targets, slots, o.guesses, o.choices, current))
    return out


NIGHT_VOTES = ("coven", "court", "protect", "veto", "save", "pack")


def _standing(game, panel):
    """Standing submissions but the day vote (shown on the game page), each with whether it
    may be withdrawn now. The engine keeps last night's tallies through the day; by day
    they are history, not submissions."""
    if game.status != Game.Status.RUNNING:
        return []
    withdrawable = {o.what for o in panel.options if o.action == "withdraw"}
    return [
        (w, v, w in withdrawable)
        for w, v in panel.standing.items()
        if w != "vote" and (game.is_night or w not in NIGHT_VOTES)
    ]


@never_cache
def role(request, game_id):
    seat = get_seat_for_user(request, game_id)
    game = seat.game
    if game.status == Game.Status.OPEN:
        return render(request, "games/role.html", {"game": game, "seat": seat, "dealt": False})
    try:
        assignment = seat.assignment
    except Assignment.DoesNotExist:  # a started game deals every seat; never expected
        return render(request, "games/role.html", {"game": game, "seat": seat, "dealt": False})
    page = role_page(game, seat)
    card = assignment.role or assignment.character
    team = TYPES[assignment.type][0] if assignment.type else None
    when, coming = page.panel.coming
    return render(
        request,
        "games/role.html",
        {
            "game": game,
            "seat": seat,
            "dealt": True,
            "page": page,
            "assignment": assignment,
            "cards": _cards(game, assignment),
            "actions": _action_views(page.panel, card),
            "standing": _standing(game, page.panel),
            "team": team,
            "coming": coming_labels(coming, card),
            "coming_when": when,
            # Tonight's midnight, when the day runs to its deadline (W-3, WW-5).
            "coming_midnight": game.deadline_at + game.night_length / 2
            if when == "night_midnight" and game.deadline_at
            else None,
            "idle": idle_text(
                status=page.panel.status,
                ruleset=game.ruleset,
                angel=team == "village",
                night=game.is_night,
            ),
        },
    )


def _card_of(seat):
    """The seat's card whose ability the role page offers (the role, or the character)."""
    try:
        a = seat.assignment
    except Assignment.DoesNotExist:
        return None
    return a.role or a.character


@never_cache
@require_POST
def role_act(request, game_id):
    seat = get_seat_for_user(request, game_id)
    game = seat.game
    names = game_display_names(game)
    form = ActionForm(request.POST, names=list(names))
    if not form.is_valid():
        refused(request, gettext("that is not a valid action"))
        return redirect("game_role", game_id=game.pk)
    data = form.cleaned_data
    step = {k: data[k] for k in ("targets", "guess", "choice") if data[k]}
    if data["target"]:
        step["target"] = data["target"]
    try:
        services.action_submit(
            game=game,
            user=request.user,
            action=data["action"],
            target=data["target"] or None,
            targets=data["targets"],
            guess=data["guess"] or None,
            choice=data["choice"] or None,
        )
    except GameRuleError as e:
        refused(request, e)
    else:
        card = _card_of(seat)
        messages.success(request, accepted_text(data["action"], step, names, card))
    return redirect("game_role", game_id=game.pk)


@never_cache
@require_POST
def role_withdraw(request, game_id):
    seat = get_seat_for_user(request, game_id)
    game = seat.game
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        refused(request, gettext("there is nothing like that to withdraw"))
        return redirect("game_role", game_id=game.pk)
    try:
        services.action_withdraw(game=game, user=request.user, what=form.cleaned_data["what"])
    except GameRuleError as e:
        refused(request, e)
    else:
        messages.success(request, withdrawn_text(withdraw_label(form.cleaned_data["what"])))
    return redirect("game_role", game_id=game.pk)


urlpatterns = [
    path("games/<id:game_id>/role/", role, name="game_role"),
    path("games/<id:game_id>/act/", role_act, name="game_act"),
    path("games/<id:game_id>/withdraw/", role_withdraw, name="game_withdraw"),
]
