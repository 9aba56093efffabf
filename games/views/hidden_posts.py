"""The moderator hides a player's post from the desk, or shows it again
(services/moderation.py: a leaked card, abuse). The desk names the post by its thread and
its number, as the thread shows it; a room is named by its id, as in the desk's links."""

from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import selectors, services
from games.engine import GameRuleError
from games.selectors.threads import PUBLIC

from .access import get_moderated_game_for_user
from .desk import desk_run


def _thread(game, ref):
    """The thread key of `ref` (the desk's "public", or a room's id), else a refusal."""
    if ref == PUBLIC:
        return PUBLIC
    keys = [room.key for room in selectors.room_links(game, selectors.game_state_if_running(game))]
    key = selectors.room_key(game, ref, keys)
    if key is None:
        raise GameRuleError(gettext("choose the thread the post is in"))
    return key


def _number(text):
    number = text.strip().lstrip("#")
    if not number.isdigit() or not 0 < int(number) < 2**31:
        raise GameRuleError(gettext("type the post's number, as its # in the thread shows it"))
    return int(number)


@never_cache
@require_POST
def desk_hide(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    ref, number, reason = (request.POST.get(k, "") for k in ("thread", "number", "reason"))
    return desk_run(
        request,
        game,
        lambda: services.post_hide(
            game=game,
            thread=_thread(game, ref),
            number=_number(number),
            by=request.user,
            reason=reason,
        ),  # fmt: skip
        lambda post: (
            gettext("Post #%(number)s is hidden: its thread shows your reason in its place.")
            % {"number": post.number}
        ),
        {"hide_thread": ref, "hide_number": number, "hide_reason": reason},
    )


@never_cache
@require_POST
def desk_show(request, game_id):
    game = get_moderated_game_for_user(request, game_id)
    ref, number = request.POST.get("thread", ""), request.POST.get("number", "")
    return desk_run(
        request,
        game,
        lambda: services.post_show(
            game=game, thread=_thread(game, ref), number=_number(number), by=request.user
        ),
        lambda post: (
            gettext("Post #%(number)s shows again as it was written.") % {"number": post.number}
        ),
    )


urlpatterns = [
    path("games/<id:game_id>/desk/hide/", desk_hide, name="game_desk_hide"),
    path("games/<id:game_id>/desk/show/", desk_show, name="game_desk_show"),
]
