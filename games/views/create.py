"""The "new game" page, for users allowed to host; anyone else is told how to become one."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from accounts.selectors import host_granter_names
from games import panels, queue, services
from games.deal import deal_problems, errors_only
from games.engine import GameRuleError
from games.forms import NewGameForm
from games.permissions import can_host

from .feedback import sentence


def _problems(data):
    """deal.deal_problems for the form. An explicit deal is checked unshuffled, so that its
    placeholder seats ("seat2") can be told as the host's own lines ("card 3"; "Card 3" at
    a sentence's start, where deal.py gives every sentence its capital)."""
    deal = data["deal"]
    if deal["mode"] != "explicit":
        return deal_problems(data["ruleset"], deal, data["seats_count"])
    return deal_problems(
        data["ruleset"], {**deal, "shuffle": False}, data["seats_count"], seat_words=_card_named
    )


def _card_named(seat: int) -> str:
    """Placeholder seat `seat` (from 0) as the host's own line: "card 3" for seat 2."""
    return gettext("card %(number)s") % {"number": seat + 1}


@never_cache
@login_required
def game_new(request):
    if not can_host(request.user):
        # Forbidden, with the way to become a host (a POST changes nothing).
        context = {"may_host": False, "granters": host_granter_names()}
        return render(request, "games/game_new.html", context, status=403)
    # A capability may fill the form's first values (the lab: ?suggested=witchhunt-12).
    initial = None
    if request.method == "GET":
        initial = queue.refine(
            queue.NEW_GAME_INITIAL, None, query=request.GET, request=request
        )
    form = NewGameForm(request.POST or None, initial=initial)
    warnings_only = False
    warnings = []  # the problems shown as warnings: the template marks them by this list
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        found = _problems(data)
        errors = errors_only(found)
        warnings = [p for p in found if p.warning]
        if errors or (warnings and not data["accept_warnings"]):
            # Every problem at once; warnings alone only need a second click (W-23).
            for problem in found:
                form.add_error(None, problem)
            warnings_only = not errors
        else:
            try:
                game = services.game_create(
                    host=request.user,
                    ruleset=data["ruleset"],
                    title=data["title"],
                    seats_count=data["seats_count"],
                    deal=data["deal"],
                    options=data["options"],
                    day_length=data["day_length"],
                    night_length=data["night_length"],
                    early_end=data["early_end"],
                    early_end_grace=data["early_end_grace"],
                    reminder_hours=data["reminder_hours"],
                    signups_close_at=data["signups_close_at"],
                    min_finished_games=data["min_finished_games"],
                    start_when_full=data["start_when_full"],
                    prod_after=data["prod_after"],
                    # The capabilities' own fields of the form (its NEW_GAME "fields" panels).
                    extras={k: v for k, v in request.POST.items() if k not in form.fields},
                )
            except services.SetupProblems as e:
                for problem in e.problems:
                    # A capability's refusal of its own fields comes as the engine's error.
                    refused = isinstance(problem, GameRuleError)
                    form.add_error(None, sentence(problem) if refused else problem)
                warnings = [p for p in e.problems if getattr(p, "warning", False)]
            except GameRuleError as e:  # the start date, checked again at the write
                form.add_error("signups_close_at", sentence(e))
            else:
                messages.success(
                    request, gettext("The game is open: players can join from the lobby.")
                )
                return redirect("game_detail", game_id=game.pk)
    return render(
        request,
        "games/game_new.html",
        {
            "may_host": True,
            "form": form,
            "warnings_only": warnings_only,
            "warnings": warnings,
            "panels": panels.collect(panels.NEW_GAME, request=request, form=form),
        },
    )


urlpatterns = [
    path("games/new/", game_new, name="game_new"),
]
