"""A player's private notes on the other players of their game: one page with a form per
seat (GET), each saved on its own (POST, CSRF). Only a seated member has notes; anyone
else gets the same 404 as for a game that does not exist."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.views.access import get_seat_for_user
from games.views.feedback import refused

from ..selectors.notes import notes_page
from ..services.notes import note_save


@never_cache
@login_required
def notes(request, game_id):
    seat = get_seat_for_user(request, game_id)
    page = notes_page(seat.game, seat)
    return render(request, "reading/notes.html", {"game": seat.game, "page": page})


@never_cache
@require_POST
@login_required
def note_edit(request, game_id):
    seat = get_seat_for_user(request, game_id)
    name = request.POST.get("seat", "")
    try:
        note_save(
            game=seat.game,
            user=request.user,
            seat=name,
            read=request.POST.get("read", ""),
            text=request.POST.get("text", ""),
            shared=request.POST.get("shared") == "on",
        )
    except GameRuleError as e:
        refused(request, e)
        return redirect("game_notes", game_id=seat.game_id)
    messages.success(request, gettext("Your note is saved."))
    return redirect(reverse("game_notes", args=[seat.game_id]) + f"#note-{name}")


urlpatterns = [
    path("games/<id:game_id>/notes/", notes, name="game_notes"),
    path("games/<id:game_id>/notes/save/", note_edit, name="game_note_save"),
]
