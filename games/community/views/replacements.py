"""Replacements (issue 16): the replacement list page (join it for any game or one game,
leave it, volunteer for a seat wanted now), an offer's page with its one "Take the seat"
button, a player's "ask to be replaced" from the role page, and the desk's mark and
unmark. Each a POST with one service call; another member's offer is the same 404 as none.
"""

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.engine import GameRuleError
from games.models import Game
from games.views.access import get_game_for_user, get_moderated_game_for_user, get_seat_for_user
from games.views.desk import desk_run
from games.views.feedback import refused

from ..selectors.replacements import offer_page, replacement_list_page
from ..services import replacements


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@never_cache
@login_required
def replacement_list(request):
    page = replacement_list_page(request.user)
    return render(request, "community/replacements.html", {"page": page})


def _listed_game(request, value):
    """The game a list form names, or None for "any game"; a game that is not there is
    the same 404 as any other."""
    if not value:
        return None
    game_id = _int(value)
    if game_id is None:
        raise Http404("no such game")
    return get_game_for_user(request, game_id)


def _run(request, do, done, to=None):
    """One service call for the list page; back to it, or to `to(result)`."""
    try:
        result = do()
    except GameRuleError as e:
        refused(request, e)
        return redirect("replacement_list")
    messages.success(request, done)
    return redirect(to(result) if to else "replacement_list")


@never_cache
@require_POST
@login_required
def replacement_join(request):
    game = _listed_game(request, request.POST.get("game"))
    hours = _int(request.POST.get("hours"), 0)
    note = request.POST.get("note", "")
    if game is None:
        done = gettext("You are on the replacement list for any game.")
    else:
        done = gettext("You are on the replacement list for %(title)s.") % {"title": game.title}
    return _run(
        request,
        lambda: replacements.volunteer_join(
            user=request.user, game=game, hours_per_week=hours, note=note
        ),
        done,
    )


@never_cache
@require_POST
@login_required
def replacement_leave(request):
    game = _listed_game(request, request.POST.get("game"))
    return _run(
        request,
        lambda: replacements.volunteer_leave(user=request.user, game=game),
        gettext("You are off that list."),
    )


@never_cache
@require_POST
@login_required
def replacement_volunteer(request, game_id):
    game = get_game_for_user(request, game_id)
    seat = request.POST.get("seat", "")
    return _run(
        request,
        lambda: replacements.seat_volunteer(game=game, seat_name=seat, user=request.user),
        gettext("The seat is offered to you: take it below if you still want it."),
        to=lambda offer: reverse("replacement_offer", args=[offer.pk]),
    )


@never_cache
@login_required
def replacement_offer(request, offer_id):
    page = offer_page(request.user, offer_id)
    if page is None:
        raise Http404("no such offer")
    return render(request, "community/replacement_offer.html", {"page": page})


@never_cache
@require_POST
@login_required
def replacement_offer_answer(request, offer_id):
    """ "Take the seat" (to the role page: the cards are the taker's now) or "Decline"."""
    take = request.POST.get("answer") == "take"
    try:
        if take:
            seat = replacements.offer_accept(offer_id=offer_id, user=request.user)
        else:
            replacements.offer_decline(offer_id=offer_id, user=request.user)
    except GameRuleError as e:
        refused(request, e)
        return redirect("replacement_offer", offer_id=offer_id)
    if take:
        messages.success(request, gettext("The seat is yours: its cards, rooms and history."))
        return redirect("game_role", game_id=seat.game_id)
    messages.success(request, gettext("You declined the seat. You stay on the list for others."))
    return redirect("replacement_list")


@never_cache
@require_http_methods(["GET", "POST"])
def leave_ask(request, game_id):
    """A player asks to be replaced: GET, the confirmation page with an optional reason
    for the moderator; POST, mark the seat."""
    seat = get_seat_for_user(request, game_id)
    game = seat.game
    back = _back(request, game)  # where the player asked from: the game page or the role page
    if request.method == "GET":
        if game.status != Game.Status.RUNNING:
            raise Http404("no running game")
        return render(
            request, "community/leave_ask.html", {"game": game, "seat": seat, "back": back}
        )
    try:
        replacements.leave_ask(game=game, user=request.user, note=request.POST.get("note", ""))
    except GameRuleError as e:
        refused(request, e)
    else:
        messages.success(
            request,
            gettext(
                "The thread says a replacement is wanted for your seat. Play on until "
                "somebody takes it; the moderator has your reason."
            ),
        )
    return redirect(back)


def _back(request, game) -> str:
    """The same-site page the request names (`next`), this game's; else the role page."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    if back.startswith(f"/games/{game.pk}/") and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return reverse("game_role", args=[game.pk])


@never_cache
@require_POST
def desk_replacement(request, game_id):
    """The desk's "Ask for a replacement" and "Keep the player" for one seat."""
    game = get_moderated_game_for_user(request, game_id)
    seat = request.POST.get("seat", "")
    if request.POST.get("mark") == "yes":
        service = replacements.replacement_mark
        done = gettext("The thread says a replacement is wanted; the volunteers have the offer.")
    else:
        service = replacements.replacement_unmark
        done = gettext("The seat is no longer wanted; its open offers are closed.")
    return desk_run(
        request, game, partial(service, game=game, seat_name=seat, by=request.user), done
    )


urlpatterns = [
    path("replacements/", replacement_list, name="replacement_list"),
    path("replacements/join/", replacement_join, name="replacement_join"),
    path("replacements/leave/", replacement_leave, name="replacement_leave"),
    path("replacements/offers/<id:offer_id>/", replacement_offer, name="replacement_offer"),
    path(
        "replacements/offers/<id:offer_id>/answer/",
        replacement_offer_answer,
        name="replacement_offer_answer",
    ),
    path(
        "games/<id:game_id>/replacements/volunteer/",
        replacement_volunteer,
        name="replacement_volunteer",
    ),
    path("games/<id:game_id>/replacement/ask/", leave_ask, name="game_leave_ask"),
    path("games/<id:game_id>/desk/replacement/", desk_replacement, name="game_desk_replacement"),
]
