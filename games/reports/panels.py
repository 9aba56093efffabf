"""What the reports and the ignores show on the core's pages:
- GAME and ROOM "ignore": the viewer's ignore set (no markup: the thread's templates ask
  `post in ignored` of each post). A viewer's own, so the game page makes their thread
  for them (views/fragments.py OWN_SLOTS); None for a viewer who ignores nobody here.
- GAME and ROOM "post_tools": the link on each player's post to its "Report or ignore"
  page. The same for every reader of the thread (the page says who may do what), so the
  game page's cached thread may hold it.
- DESK "reports": the open reports, beside the hide tool, with the moderator's acts.
- PROFILE "preferences": whom the member ignores (each with "stop ignoring"), and the link
  to their own reports."""

from django.urls import reverse

from games import panels
from games.models import Game

from .selectors import ignore_set, ignores_listed, reports_desk, thread_ref


def game_ignored(*, game, user, **_):
    if game.status == Game.Status.OPEN:
        return None
    return ignore_set(user, game)


def room_ignored(*, game, user, **_):
    return ignore_set(user, game)


def _tools(game, thread):
    if game.status != Game.Status.RUNNING:
        return None
    return reverse("post_about", args=[game.pk, thread_ref(game, thread), 1])[:-2]


def game_post_tools(*, game, **_):
    return _tools(game, "public")


def room_post_tools(*, game, thread, **_):
    return _tools(game, thread)


def desk_reports(*, game, **_):
    if game.status == Game.Status.OPEN:
        return None
    return {"reports": reports_desk(game)}


def profile_ignores(*, user, **_):
    return {"ignores": ignores_listed(user)}


def register_all() -> None:
    panels.register(panels.GAME, "ignore", "reports/_nothing.html", game_ignored)
    panels.register(panels.ROOM, "ignore", "reports/_nothing.html", room_ignored)
    panels.register(panels.GAME, "post_tools", "reports/_post_tools.html", game_post_tools)
    panels.register(panels.ROOM, "post_tools", "reports/_post_tools.html", room_post_tools)
    panels.register(panels.DESK, "reports", "reports/_desk.html", desk_reports)
    panels.register(panels.PROFILE, "preferences", "reports/_profile.html", profile_ignores)
