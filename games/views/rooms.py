"""The rooms beside the public thread (issue 7): a meeting's private thread for its members
(W-26a), the afterlife of the dead (W-17; in Werewolf the graveyard), and read-only views
of every room for the afterlife and, once the game is over, for everyone (W-71).

Every view starts with an access helper: a room the viewer may not use now is a 404, the
same as a room that does not exist. Pages are never cached; posting is a POST with CSRF.

A room's URL names it by its opaque id (selectors.room_ref), never by the engine's meeting
key: the selectors map the id back among the rooms the viewer may open.
"""

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import panels, queue, services
from games.engine import GameRuleError
from games.forms import PostForm
from games.models import Game
from games.permissions import AFTERLIFE
from games.selectors import (
    afterlife_page,
    page_number,
    post_page,
    room_key,
    room_links,
    room_page,
)

from .access import (
    get_afterlife_seat_for_user,
    get_finished_game_for_user,
    get_room_seat_for_user,
)
from .feedback import sentence
from .kept_post import refused_post_redirect, refused_post_taken
from .preview import PREVIEW, preview


def _opened(request, game, key):
    """THREAD_OPENED for room `key`: where the room lands instead (the reader's first unread
    post), when a listener says so; None: make the page."""
    opening = queue.refine(
        queue.THREAD_OPENED, queue.ThreadOpening(), request=request, game=game, thread=key
    )
    return opening.redirect


def _shown(request, game, key, posts, *, seat=None, state=None, whole_game=False):
    """THREAD_SHOWN for room `key`, and the page's panels (the read bar, "N new")."""
    queue.emit(
        queue.THREAD_SHOWN,
        request=request,
        game=game,
        thread=key,
        posts=posts,
        seat=seat,
        state=state,
        whole_game=whole_game,
    )
    return panels.collect(panels.ROOM, request=request, game=game, user=request.user, thread=key)


def _write(request, seat, key, thread_url):
    """A post in room `key` by `seat`'s user; a refused one comes back with its text."""
    form = PostForm(request.POST)
    if form.is_valid() and PREVIEW in request.POST:
        preview(form, lambda body, _reply: services.post_preview(
            game=seat.game, user=request.user, body=body, room=key
        ))  # fmt: skip
    elif form.is_valid():
        try:
            post = services.room_post(
                game=seat.game, user=request.user, room=key, body=form.cleaned_data["body"]
            )
        except GameRuleError as e:
            form.add_error(None, sentence(e))
        else:
            return redirect(f"{thread_url}?page={post_page(post.number)}#p{post.number}")
    return refused_post_redirect(request, form, thread_url)  # the text kept, a reload safe


# --- a meeting ---------------------------------------------------------------------------------
def _render_room(request, seat, state, key, form=None):
    game = seat.game
    page = room_page(game, key, seat=seat, state=state, page=page_number(request.GET.get("page")))
    shown = _shown(request, game, key, page.posts, seat=seat, state=state)
    return render(
        request,
        "games/room.html",
        {
            "game": game,
            "room": page,
            "post_form": form or PostForm(),
            "post_action": reverse("game_room_post", args=[game.pk, page.ref]),
            "panels": shown,
        },
    )


@never_cache
def room(request, game_id, ref):
    seat, state, key = get_room_seat_for_user(request, game_id, ref)
    kept = refused_post_taken(request)  # a refused post comes back to its form
    landing = None if kept else _opened(request, seat.game, key)  # the first unread post
    if landing is not None:
        return landing
    return _render_room(request, seat, state, key, kept)


@never_cache
@require_POST
def room_post(request, game_id, ref):
    seat, state, key = get_room_seat_for_user(request, game_id, ref)
    url = reverse("game_room", args=[seat.game.pk, ref])
    return _write(request, seat, key, url)


# --- the afterlife -----------------------------------------------------------------------------
def _render_afterlife(request, seat, state, form=None):
    game = seat.game
    page = afterlife_page(game, seat, state, page=page_number(request.GET.get("page")))
    shown = _shown(request, game, AFTERLIFE, page.posts, seat=seat, state=state)
    return render(
        request,
        "games/afterlife.html",
        {
            "game": game,
            "page": page,
            "post_form": form or PostForm(),
            "post_action": reverse("game_afterlife_post", args=[game.pk]),
            "panels": shown,
        },
    )


@never_cache
def afterlife(request, game_id):
    seat, state = get_afterlife_seat_for_user(request, game_id)
    kept = refused_post_taken(request)  # a refused post comes back to its form
    landing = None if kept else _opened(request, seat.game, AFTERLIFE)  # the first unread
    if landing is not None:
        return landing
    return _render_afterlife(request, seat, state, kept)


@never_cache
@require_POST
def afterlife_post(request, game_id):
    seat, state = get_afterlife_seat_for_user(request, game_id)
    url = reverse("game_afterlife", args=[seat.game.pk])
    return _write(request, seat, AFTERLIFE, url)


# --- read-only views of a room: the afterlife (W-17), the desk, the reveal (W-71) ---------------
def render_read_only_room(
    request, game, ref, state, *, note, back_url, back_label, links, exclude=(), hide_url=""
):
    """Any private thread of `game` for a viewer who sees the whole game (the caller's access
    helper said so), with links to the others (`links`: their URL's name). `ref` is the
    room's id (selectors.room_ref); one that names no room of this game is a 404. With
    `hide_url` (the moderator's desk) each player's post links to it, its number added."""
    threads = [t for t in room_links(game, state) if t.key not in exclude]
    key = room_key(game, ref, [t.key for t in threads])
    if key is None:
        raise Http404("no such room")
    # Read state while the game runs (the desk, the afterlife); after it, the reveal's.
    if game.status == Game.Status.RUNNING:
        landing = _opened(request, game, key)
        if landing is not None:
            return landing
    room = room_page(game, key, state=state, page=page_number(request.GET.get("page")))
    # The caller's viewer sees the whole game: every thread.
    shown = _shown(request, game, key, room.posts, state=state, whole_game=True)
    return render(
        request,
        "games/room.html",
        {
            "game": game,
            "panels": shown,
            "room": room,
            "read_only": True,
            "read_only_note": note,
            "back_url": back_url,
            "back_label": back_label,
            "threads": threads,
            "room_link_name": links,
            "hide_url": hide_url,
        },
    )


@never_cache
def afterlife_room(request, game_id, ref):
    seat, state = get_afterlife_seat_for_user(request, game_id, whole_game=True)
    return render_read_only_room(
        request,
        seat.game,
        ref,
        state,
        note=gettext(
            "You read this room from the afterlife (W-17). Its members cannot see you, "
            "and you cannot write here."
        ),
        back_url=reverse("game_afterlife", args=[seat.game.pk]),
        back_label=gettext("The afterlife"),
        links="game_afterlife_room",
        exclude=(AFTERLIFE,),  # the dead write in it on its own page
    )


def reveal_room(request, game_id, ref):
    """After the end every private thread is open to everyone, like every card (W-71)."""
    game = get_finished_game_for_user(request, game_id)
    return render_read_only_room(
        request,
        game,
        ref,
        None,
        note=gettext("The game is over: every private thread is open to everyone (W-71)."),
        back_url=reverse("game_reveal", args=[game.pk]),
        back_label=gettext("The final reveal"),
        links="game_reveal_room",
    )


# <slug:ref>: a room's opaque id (selectors.room_ref), never its meeting key.
urlpatterns = [
    path("games/<id:game_id>/rooms/<slug:ref>/", room, name="game_room"),
    path("games/<id:game_id>/rooms/<slug:ref>/post/", room_post, name="game_room_post"),
    path("games/<id:game_id>/afterlife/", afterlife, name="game_afterlife"),
    path("games/<id:game_id>/afterlife/post/", afterlife_post, name="game_afterlife_post"),
    path(
        "games/<id:game_id>/afterlife/rooms/<slug:ref>/",
        afterlife_room,
        name="game_afterlife_room",
    ),
    path("games/<id:game_id>/reveal/rooms/<slug:ref>/", reveal_room, name="game_reveal_room"),
]
