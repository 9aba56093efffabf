"""The viewer's pages: a step of a view, and a view opened at another's moment. Only a
finished game has them (views/access.get_finished_game_for_user: everything is revealed
to everyone at the end, W-71, WW-16); anything else is the site's 404."""

from django.http import Http404
from django.shortcuts import redirect, render

from games.views.access import get_finished_game_for_user
from witchhunt.converters import parse_id

from .narration import view_labels
from .selectors import step_at, step_url, viewer_page
from .timeline import PUBLIC_VIEW


def viewer_step(request, game_id, view, step):
    game = get_finished_game_for_user(request, game_id)
    page = viewer_page(game, view, step, view_labels())
    if page is None:
        raise Http404("no such step")
    return render(request, "viewer/viewer.html", {"game": game, "page": page})


def viewer_open(request, game_id):
    """`?view=…&at=…`: the view's step at the moment `at` (a Moment.order) another view
    showed; without them, the first step of the public view."""
    game = get_finished_game_for_user(request, game_id)
    view = request.GET.get("view") or PUBLIC_VIEW
    at = parse_id(request.GET.get("at")) or 0
    step = step_at(game, view, at)
    if not step:
        raise Http404("no such view")
    return redirect(step_url(game.pk, view, step))
