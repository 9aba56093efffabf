"""The game page's live refresh (static/js/live.js polls it): 304 Not Modified while the
game's version is the page's (one query), else the fragments that changed, rendered with
the page's own partials. The game page is open to everyone, and so is this: it shows
exactly what the game page shows its viewer."""

from django.http import Http404, HttpResponseNotModified
from django.shortcuts import render
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import queue
from games.forms import PostForm
from games.selectors.live import live_update, live_version
from games.selectors.threads import PUBLIC
from witchhunt.converters import parse_id

from .access import get_game_for_user


@never_cache
@require_GET
def game_live(request, game_id):
    # The version query finds the game: the game page's access (every game) at one query.
    version = live_version(game_id, request.user)
    if version is None:
        raise Http404("no such game")
    etag = f'"{version.tag}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    game = get_game_for_user(request, game_id)
    after = request.GET.get("after")  # the last post the page has: 0 for an empty thread
    update = live_update(
        game,
        request.user,
        after=0 if after == "0" else parse_id(after),
        version=version,
        append=request.GET.get("mode") == "append",
    )
    context = {
        "game": game,
        "page": update.page,
        "live": update,
        # The post form as the page would show it now (the phase may have moved on).
        "show_post_form": update.page.can_post,
        "post_form": PostForm(),
    }
    response = render(request, "games/_live.html", context)
    if update.page.posts.rows:
        # Appended to the open page: whoever listens (the reader's mark) hears of it.
        queue.emit(
            queue.POSTS_APPENDED, user=request.user, game=game, thread=PUBLIC, upto=update.last
        )
    response["ETag"] = etag
    return response


urlpatterns = [path("games/<id:game_id>/live/", game_live, name="game_live")]
