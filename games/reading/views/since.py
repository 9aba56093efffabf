"""Since you last read, and "Mark all read": the reading capability's own pages.

"Since you last read" shows what changed in a game since the viewer last opened it (from
the game page's link, since the visit before that page); "Mark all read" moves the marks of
one thread, or of every thread the viewer may read, to their last posts.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.views.access import get_game_for_user
from games.views.feedback import run_and_redirect

from ..selectors.news import thread_key
from ..selectors.readable import readable
from ..selectors.since import since_page
from ..services.read_state import game_visit_record, read_marks_all

ALL = "all"  # "Mark everything read": every thread the viewer may read


@never_cache
@login_required
def since(request, game_id):
    """What changed in a game since the viewer last opened it (or, from the game page's
    link, since the visit before that page): built from the events their pages show them.
    Opening it counts as a visit."""
    game = get_game_for_user(request, game_id)
    previous = request.GET.get("visit") == "previous"
    page = since_page(game, request.user, previous=previous)
    game_visit_record(user=request.user, game=game, upto=page.latest_event)
    return render(request, "reading/since.html", {"game": game, "page": page})


@never_cache
@require_POST
@login_required
def mark_read(request, game_id):
    """ "Mark all read": one thread (`thread`: "public", a room's id, "afterlife"), or every
    thread the viewer may read ("all"); a thread they may not read is refused like one
    that does not exist. Back to `next` (the page it was sent from)."""
    ref = request.POST.get("thread", "")

    def mark(game):
        can = readable(game, request.user)
        if ref == ALL:
            return read_marks_all(user=request.user, game=game, can=can)
        key = thread_key(game, request.user, ref, can)
        if key is None:
            raise GameRuleError(gettext("there is no such thread for you to read"))
        return read_marks_all(user=request.user, game=game, keys={key}, can=can)

    return run_and_redirect(
        request,
        game_id,
        mark,
        gettext("Everything is marked read.")
        if ref == ALL
        else gettext("The thread is marked read."),
        to="game_since" if ref == ALL else "game_detail",
    )


urlpatterns = [
    path("games/<id:game_id>/since/", since, name="game_since"),
    path("games/<id:game_id>/read/", mark_read, name="game_read"),
]
