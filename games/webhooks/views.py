"""The desk's webhook controls (the moderator's alone: anyone else gets a 404): add a
destination, remove it, turn it on again, send a test. Each is a POST with CSRF and one
service call; a refusal re-renders the desk with the reason, nothing written. A signed
endpoint's secret is shown once, on the page that answers its creation (never cached)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.views.access import get_moderated_game_for_user
from games.views.desk import desk_run
from games.views.feedback import form_refusal

from .forms import EndpointForm
from .narration import test_story
from .services import endpoints as services


def _typed_again(form):
    """The form shown again after a refusal, without what is secret (the address of a
    Discord or Slack webhook is its own key; the token)."""
    data = form.data.copy()
    data["address"], data["token"] = "", ""
    again = EndpointForm(data)
    again.is_valid()
    return EndpointForm(
        initial={k: again.cleaned_data.get(k) for k in ("kind", "room", "events", "mentions")}
    )


@never_cache
@require_POST
@login_required
def webhook_add(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    form = EndpointForm(request.POST)
    made = {}

    def add():
        if not form.is_valid():
            form_refusal(form)
        data = form.cleaned_data
        made["endpoint"], made["secret"] = services.endpoint_add(
            game=game, user=request.user, kind=data["kind"], address=data["address"],
            room=data["room"], token=data["token"], events=data["events"],
            mentions=data["mentions"],
            # The game's news in its moderator's language (their profile's), else the site's.
            language=request.user.language,
        )  # fmt: skip

    answer = desk_run(
        request, game, add, gettext("The destination is added."),
        {"webhook_form": _typed_again(form)},
    )  # fmt: skip
    if made.get("secret"):  # shown this once: the page answers the POST, never cached
        return render(
            request,
            "webhooks/secret.html",
            {"game": game, "endpoint": made["endpoint"], "secret": made["secret"]},
        )
    return answer


def _act(request, game_id, pk, do, done):
    game = get_moderated_game_for_user(request, game_id)
    return desk_run(request, game, lambda: do(game=game, pk=pk), done)


@require_POST
@login_required
def webhook_remove(request, game_id, pk):
    return _act(
        request, game_id, pk, services.endpoint_remove, gettext("The destination is removed.")
    )


@require_POST
@login_required
def webhook_enable(request, game_id, pk):
    return _act(
        request, game_id, pk, services.endpoint_enable, gettext("The destination is on again.")
    )


@require_POST
@login_required
def webhook_test(request, game_id, pk):
    def test(game, pk):
        return services.endpoint_test(game=game, pk=pk, build=test_story(game))

    return _act(request, game_id, pk, test, gettext("A test is on its way."))


urlpatterns = [
    path("games/<id:game_id>/desk/webhooks/", webhook_add, name="game_webhook_add"),
    path(
        "games/<id:game_id>/desk/webhooks/<id:pk>/remove/",
        webhook_remove,
        name="game_webhook_remove",
    ),
    path(
        "games/<id:game_id>/desk/webhooks/<id:pk>/enable/",
        webhook_enable,
        name="game_webhook_enable",
    ),
    path("games/<id:game_id>/desk/webhooks/<id:pk>/test/", webhook_test, name="game_webhook_test"),
]
