"""The desk's anonymity form (the moderator's alone: anyone else gets a 404): one POST,
one service call; a refusal shows the desk again with the reason and what was typed."""

from django.contrib.auth.decorators import login_required
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.views.access import get_moderated_game_for_user
from games.views.desk import desk_run
from games.views.feedback import form_refusal

from .forms import AnonymityForm
from .services import anonymity_choose


@require_POST
@login_required
def anonymity_set(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    form = AnonymityForm(request.POST)

    def choose():
        if not form.is_valid():
            form_refusal(form)
        data = form.cleaned_data
        anonymity_choose(game=game, user=request.user, theme=data["theme"], names=data["names"])
        return data["theme"]

    def done(theme):
        if theme:
            return gettext("The game is anonymous: each seat has an alias.")
        return gettext("The game is no longer anonymous: players go by their own names.")

    return desk_run(request, game, choose, done, {"anonymity_form": form})


urlpatterns = [
    path("games/<id:game_id>/desk/anonymity/", anonymity_set, name="game_anonymity_set"),
]
