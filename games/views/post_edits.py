"""A post's edit (issue 31): its author edits it within the short window
(services/post_edits.py), with the post box's preview; and its versions, for the game's
moderator while it runs and for everyone once it is over (the final reveal's openness,
W-71), public thread posts only: a room's stay with the room."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache

from games import services
from games.engine import GameRuleError
from games.forms import PostForm
from games.models import Game, Post
from games.permissions import can_moderate
from games.selectors import post_url
from games.selectors.forum import post_versions
from games.selectors.threads import PUBLIC

from .access import get_game_for_user
from .feedback import sentence
from .preview import PREVIEW, preview


def _own_post(request, game, number) -> Post:
    """The viewer's own public post `number`; anyone else's is a 404, like a missing one."""
    post = (
        Post.objects.filter(
            game=game, thread=PUBLIC, number=number, author=request.user, kind=Post.Kind.PLAYER
        )
        .select_related("seat")
        .first()
    )
    if post is None:
        raise Http404("no such post of yours")
    return post


@never_cache
@login_required
def post_edit(request, game_id, number):
    game = get_game_for_user(request, game_id)
    post = _own_post(request, game, number)
    refusal = services.edit_refusal(game, post, request.user)
    form = PostForm(request.POST or None, initial={"body": post.body})
    if request.method == "POST" and refusal is None and form.is_valid():
        body = form.cleaned_data["body"]
        if PREVIEW in request.POST:
            preview(form, lambda text, _reply: services.post_preview(
                game=game, user=request.user, body=text
            ))  # fmt: skip
        else:
            try:
                services.post_edit(
                    game=game, user=request.user, thread=PUBLIC, number=number, body=body
                )
            except GameRuleError as e:
                form.add_error(None, sentence(e))
            else:
                return redirect(post_url(game.pk, number))
    return render(
        request,
        "games/post_edit.html",
        {
            "game": game,
            "post": post,
            "refusal": sentence(refusal) if refusal else "",
            "post_form": form,
            "post_action": reverse("game_post_edit", args=[game.pk, number]),
            "post_url": post_url(game.pk, number),
            "settings_minutes": settings.POST_EDIT_MINUTES,
        },
    )


@never_cache
def post_versions_page(request, game_id, number):
    game = get_game_for_user(request, game_id)
    moderates = can_moderate(game, request.user)
    if game.status != Game.Status.FINISHED and not moderates:
        raise Http404("no such page")
    found = post_versions(game, number)
    # A post the moderator hid keeps its text from everyone else, after the end too.
    if found is None or (found[0].hidden_at is not None and not moderates):
        raise Http404("no such post")
    post, versions = found
    return render(
        request,
        "games/post_versions.html",
        {"game": game, "post": post, "versions": versions, "post_url": post_url(game.pk, number)},
    )


urlpatterns = [
    path("games/<id:game_id>/post/<id:number>/edit/", post_edit, name="game_post_edit"),
    path(
        "games/<id:game_id>/post/<id:number>/versions/",
        post_versions_page,
        name="game_post_versions",
    ),
]
