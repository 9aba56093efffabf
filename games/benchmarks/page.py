"""The game page's cost to the web process against a bare signed-in page (issue 29).

Both go through the whole site in one process (the test client: every middleware, the
session, the member), interleaved so that they see the same machine, timed in CPU (the
process's, its SQL client included, not the database server's). The bare page is the
site's middleware around a template of the member's name; the game page is a 48-seat
Witchhunt game on a day of DAY_VOTES votes, page 1 of its thread (50 posts), read by a
seated player and by a signed-in onlooker. Printed: each one's CPU a request, its ratio
to the bare page (target <= 3x), the page made whole (no shared part cached) against the
cached one (target <= 4x), its queries and its size (target <= 80 KB).

`--page-profile` prints cProfile's top functions of the seated player's cached page.

It runs in a throwaway database (on PostgreSQL one of its own name) with in-memory caches.
"""

import cProfile
import io
import pstats
import statistics
import time

from django.db import connection
from django.http import HttpResponse
from django.template import engines
from django.urls import include, path

from games.benchmarks.world import throwaway_world

POSTS = 150  # three pages: the first is read
DAY_VOTES = 500
TARGET_RATIO, TARGET_WHOLE, TARGET_KB = 3.0, 4.0, 80

BARE = engines["django"].from_string(
    "<!doctype html><html><head><title>{{ user.player_name }}</title></head>"
    "<body><p>Signed in as {{ user.player_name }}</p></body></html>"
)


def bare(request):
    """The bare signed-in page: the member's name, nothing read beyond the session."""
    return HttpResponse(BARE.render({"user": request.user}))


# ROOT_URLCONF while the part runs: the site's addresses and the bare page.
urlpatterns = [path("bench/bare/", bare), path("", include("witchhunt.urls"))]


def add_arguments(parser):
    parser.add_argument("--page-profile", action="store_true")


def page_game():
    """(game, a seated player, a signed-in onlooker): Day 3 of a 48-seat game."""
    from accounts.models import User

    from .threads import _add_posts, _add_votes, day_game

    game, users, host = day_game("pg", "Page", 29, 3)
    _add_posts(game, POSTS, days=3, moderator=host)
    _add_votes(game, DAY_VOTES, phase=game.phase, seed=29)
    onlooker = User.objects.create_user("pg-onlooker@example.com", player_name="Onlooker")
    return game, users[0], onlooker


def _cpu_get(client, url):
    from django.core.cache import caches

    def get(whole=False):
        if whole:
            caches["pages"].clear()
        start = time.process_time()
        response = client.get(url)
        spent = time.process_time() - start
        assert response.status_code == 200, (url, response.status_code)
        return spent, response

    return get


def _queries(client, url):
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as seen:
        client.get(url)
    return len(seen)


def measure(write, who, user, game, runs, profile):
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(user)
    url = reverse("game_detail", args=[game.pk]) + "?page=1"
    bare_get, page_get = _cpu_get(client, "/bench/bare/"), _cpu_get(client, url)
    for _ in range(3):  # templates compiled, caches filled
        bare_get(), page_get()
    times = [(bare_get()[0], page_get()[0], page_get(whole=True)[0]) for _ in range(runs)]
    page_get()  # the cache filled again for the size and the queries
    bare_ms, page_ms, whole_ms = (statistics.median(t) * 1000 for t in zip(*times, strict=True))
    size = len(page_get()[1].content)
    queries = _queries(client, url)
    ratio, whole_ratio = page_ms / bare_ms, whole_ms / page_ms
    write(
        f"page.cpu       {who}: the game page (day 3, {DAY_VOTES} votes today, 48 seats, "
        f"50 posts shown) {page_ms:.2f} ms CPU, {queries} queries, {size / 1000:.1f} KB; "
        f"the bare signed-in page {bare_ms:.2f} ms; ratio {ratio:.2f}x (target <= "
        f"{TARGET_RATIO:.0f}x: {'met' if ratio <= TARGET_RATIO else 'not met'}); size "
        f"{'met' if size <= TARGET_KB * 1000 else 'not met'} (<= {TARGET_KB} KB)"
    )
    write(
        f"page.whole     {who}: made whole (no shared part cached) {whole_ms:.2f} ms CPU, "
        f"{whole_ratio:.2f}x the cached page (target <= {TARGET_WHOLE:.0f}x: "
        f"{'met' if whole_ratio <= TARGET_WHOLE else 'not met'}); median of {runs}"
    )
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(runs):
            page_get()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(40)
        write(out.getvalue())


def run(write, options):
    runs = options.runs
    with throwaway_world("bench_page", ALLOWED_HOSTS=["testserver"], ROOT_URLCONF=__name__):
        game, player, onlooker = page_game()
        vendor = connection.vendor
        write(f"page.world     {vendor}, {POSTS} posts, {DAY_VOTES} votes on day 3")
        for who, user in (("a seated player", player), ("a signed-in onlooker", onlooker)):
            measure(write, who, user, game, runs, options.page_profile)
