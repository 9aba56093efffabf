"""The archive's pages: the finished games (issue 16), a player's public profile (issue 16),
the final reveal (W-71, WW-16) and the game record download. All are public but the
record, which a running game's moderator may download too."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from games.panels import ARCHIVE, collect
from games.views.access import (
    get_finished_game_for_user,
    get_player_for_user,
    get_record_game_for_user,
)
from witchhunt.converters import parse_id

from .forms import ArchiveSearchForm
from .selectors import ArchiveFilter, archive_page, profile_page, record_json, reveal_page

MAX_PAGE = 10_000  # an OFFSET of 200,000 games: further is a typed address, shown empty


def reveal(request, game_id):
    game = get_finished_game_for_user(request, game_id)
    return render(request, "archive/reveal.html", {"game": game, "page": reveal_page(game)})


@never_cache
def record(request, game_id):
    """The game record (FORMAT.md): `manage.py play_record` replays it to the result."""
    game = get_record_game_for_user(request, game_id)
    body = record_json(game)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game.ruleset}-game-{game.pk}.json"'
    return response


def player_profile(request, key):
    player = get_player_for_user(request, key)
    return render(request, "archive/profile.html", {"page": profile_page(player)})


def archive(request):
    # Everything here is public: the selector reads finished games alone.
    query = request.GET.copy()
    query.pop("page", None)
    form = ArchiveSearchForm(query or None)
    filters = form.search() if query else {}
    page = min(parse_id(request.GET.get("page")) or 1, MAX_PAGE)
    return render(
        request,
        "archive/archive.html",
        {
            "form": form,
            "page": archive_page(ArchiveFilter(**filters), page),
            # games/panels.py: "game_links", after each game's own links (the viewer's)
            "panels": collect(ARCHIVE),
            "query": query.urlencode(),
            # The pages' links keep the search: "?player=Ann&" or "?", then "page=2".
            "page_query": f"?{query.urlencode()}&" if query else "?",
        },
    )
