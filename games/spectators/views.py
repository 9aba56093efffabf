"""The spectators' pages and buttons. Every view starts with an access helper; a page the
viewer may not open is the same 404 as a game that does not exist (a player never learns
whether the spectators' thread has posts). Pages are never cached; changes are POSTs."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.forms import PostForm
from games.narration.labels import phase_label
from games.panels import Panels
from games.selectors import page_number
from games.views.access import get_game_for_user, get_moderated_game_for_user
from games.views.feedback import refused, run_and_redirect, sentence

from . import selectors, services
from .forms import SpectatorChoicesForm


def _get_spectated_game_for_user(request, game_id):
    """(game, choices, viewer) for a viewer of the spectators' page, else a 404."""
    game = get_game_for_user(request, game_id)
    choices = selectors.choices_of(game)
    viewer = selectors.page_viewer(game, request.user, choices)
    if viewer is None:
        raise Http404("no such page")
    return game, choices, viewer


def _get_spectators_thread_for_user(request, game_id):
    game = get_game_for_user(request, game_id)
    reader = selectors.thread_reader(game, request.user)
    if reader is None:
        raise Http404("no such page")
    return game, reader


@never_cache
def spectator_page_view(request, game_id):
    game, choices, viewer = _get_spectated_game_for_user(request, game_id)
    page = selectors.spectator_page(game, viewer, choices)
    return render(request, "spectators/page.html", {"game": game, "page": page, "choices": choices})


@never_cache
def spectator_room_view(request, game_id, ref):
    game, choices, viewer = _get_spectated_game_for_user(request, game_id)
    found = selectors.spectator_room(game, ref, choices, page=page_number(request.GET.get("page")))
    if found is None:
        raise Http404("no such room")
    room, cut = found
    if cut.as_of is not None:
        note = gettext(
            "What spectators see of this room: one phase behind, as it stood when %(phase)s began."
        ) % {"phase": phase_label(str(cut.as_of))}
    else:
        note = gettext("What spectators see of this room: every post, read-only.")
    context = {
        "game": game,
        "room": room,
        "read_only": True,
        "read_only_note": note,
        "back_url": reverse("spectator_page", args=[game.pk]),
        "back_label": gettext("What spectators see"),
        "panels": Panels(),
    }
    return render(request, "games/room.html", context)


@never_cache
def spectators_thread_view(request, game_id):
    game, reader = _get_spectators_thread_for_user(request, game_id)
    form = PostForm(request.POST or None) if reader == selectors.SPECTATOR else None
    if request.method == "POST":
        if form is None:
            raise Http404("no such page")
        if form.is_valid():
            try:
                services.spectator_post(
                    game=game, user=request.user, body=form.cleaned_data["body"]
                )
            except GameRuleError as e:
                form.add_error(None, sentence(e))
            else:
                return redirect("spectators_thread", game_id=game.pk)
    context = {
        "game": game,
        "reader": reader,
        "posts": selectors.thread_posts(game),
        "post_form": form,
    }
    return render(request, "spectators/thread.html", context)


@require_POST
@login_required
def spectate_start_view(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda game: services.spectate_start(game=game, user=request.user),
        gettext("You follow this game as a spectator."),
    )


@require_POST
@login_required
def spectate_stop_view(request, game_id):
    return run_and_redirect(
        request,
        game_id,
        lambda game: services.spectate_stop(game=game, user=request.user),
        gettext("You no longer follow this game."),
    )


@require_POST
def settings_view(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    form = SpectatorChoicesForm(request.POST)
    if not form.is_valid():
        refused(request, gettext("the spectators' choices could not be read: choose again"))
    else:
        try:
            services.settings_change(game=game, user=request.user, **form.cleaned_data)
        except GameRuleError as e:
            refused(request, e)
        else:
            messages.success(request, gettext("The spectators' settings are saved."))
    return redirect("game_desk", game_id=game.pk)
