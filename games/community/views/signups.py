"""The moderator's sign-up controls of an open game, on the desk (the community's desk
panel shows them): the settings (start date, finished games, the site's start, the prod
rule), the size, and cancelling. Each is a POST with CSRF and one service call; a refusal
re-renders the desk with the reason and what was typed."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.forms import ResizeForm, signup_settings_form
from games.views.access import get_moderated_game_for_user
from games.views.desk import desk_run
from games.views.feedback import form_refusal, refused

from ..services import signups as services


@require_POST
@login_required
def signups_settings(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    form = signup_settings_form(game, request.POST)

    def save():
        if not form.is_valid():
            form_refusal(form)
        data = form.cleaned_data
        return services.signups_settings_set(
            game=game,
            by=request.user,
            starts_at=data["signups_close_at"],
            min_finished_games=data["min_finished_games"],
            start_when_full=data["start_when_full"],
            prod_after=data["prod_after"],
        )

    return desk_run(
        request,
        game,
        save,
        lambda g: (
            gettext("The game has started.")
            if g.status != "open"
            else gettext("Sign-ups are updated.")
        ),
        {"signup_form": form},
    )


@require_POST
@login_required
def signups_resize(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    form = ResizeForm(request.POST)

    def resize():
        if not form.is_valid():
            form_refusal(form)
        return services.game_resize(
            game=game, by=request.user, seats_count=form.cleaned_data["seats_count"]
        )

    return desk_run(
        request,
        game,
        resize,
        lambda g: (
            ngettext(
                "The game has %(count)s seat now.",
                "The game has %(count)s seats now.",
                g.seats_count,
            )
            % {"count": g.seats_count}
        ),
        {"resize": request.POST.get("seats_count", "")},
    )


@require_POST
@login_required
def game_cancel(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    if request.POST.get("confirm") != "yes":
        refused(request, gettext("tick “Yes, cancel this game” to cancel it"))
        return redirect("game_desk", game_id=game.pk)
    try:
        title = services.game_cancel(game=game, by=request.user)
    except GameRuleError as e:
        refused(request, e)
        return redirect("game_desk", game_id=game.pk)
    messages.success(
        request, gettext("%(title)s is cancelled; its players were told.") % {"title": title}
    )
    return redirect("game_list")


urlpatterns = [
    path("games/<id:game_id>/desk/signups/", signups_settings, name="game_signups_settings"),
    path("games/<id:game_id>/desk/size/", signups_resize, name="game_signups_resize"),
    path("games/<id:game_id>/desk/cancel/", game_cancel, name="game_cancel"),
]
