"""Coming back (issue 15): the game page of a 48-seat game with 5,000 posts, read by a
player with read state (marks in the public thread and the Coven's room, a last visit),
against the same page without it (the view's read-state steps left out: the page as it
was before issue 15), in queries and milliseconds; then the landing redirect, "since you
last read" and the game list with "N new".

It runs in a throwaway test database (its own name on PostgreSQL) with an in-memory cache
and broker, like the threads' part, whose helpers make the players and the posts."""

import random
import statistics
import time
from contextlib import contextmanager

from django.db import connection

from games.benchmarks.world import throwaway_world

from .threads import _add_posts, day_game, sql_clock

SEATS = 48
POSTS = 5000
ROOM_POSTS = 500
DAYS = 5
VOTES = 600
UNREAD = 1000  # the reader has read all but the last thousand public posts
TARGET = 2.0  # the bound: within 2x the page's time without read state


def reading_game():
    """48 seats on Day DAYS, POSTS posts in the public thread over those days, ROOM_POSTS
    in the Coven's room, VOTES public day votes; returns (game, reader: a Coven member)."""
    from games.selectors import game_state_if_running

    game, _players, host = day_game("rd", "Coming back", 17, DAYS)
    _add_posts(game, POSTS, days=DAYS, moderator=host)
    coven = game_state_if_running(game).meetings()["coven"]
    reader = game.seats.select_related("user").get(name=coven[0]).user
    _add_posts(game, ROOM_POSTS, thread="coven", days=DAYS)
    _add_votes(game)
    return game, reader


def _add_votes(game):
    """VOTES public day votes and withdrawals over the game's days, as the engine writes
    them (GameEvent rows after the game's last), the latest day's last."""
    from games.models import GameEvent

    rng = random.Random(11)
    names = list(game.seats.values_list("name", flat=True))
    first = GameEvent.objects.filter(game=game).count()
    rows = []
    for i in range(VOTES):
        voter = rng.choice(names)
        data = {"voter": voter}
        kind = "unvote" if rng.random() < 0.2 else "vote"
        if kind == "vote":
            data["target"] = rng.choice(names)
        day = 1 + i * DAYS // VOTES
        rows.append(
            GameEvent(
                game=game,
                index=first + i,
                kind=kind,
                phase=f"day {day}",
                audience="public",
                data=data,
            )  # fmt: skip
        )
    GameEvent.objects.bulk_create(rows, batch_size=500)


def _read_state(game, reader):
    """The reader's marks (all but the last UNREAD public posts, half the Coven's) and a
    last visit a hundred events back."""
    from games.models import GameEvent, Post
    from games.reading.services.read_state import game_visit_record, read_mark_forward

    last = Post.objects.filter(game=game, thread="public").count()
    read_mark_forward(user=reader, game=game, thread="public", number=last - UNREAD)
    read_mark_forward(user=reader, game=game, thread="coven", number=ROOM_POSTS // 2)
    events = GameEvent.objects.filter(game=game).count()
    game_visit_record(user=reader, game=game, upto=events - 100)
    return last


@contextmanager
def without_read_state():
    """The game page as before issue 15: nobody listens to its thread's opening and showing
    (the read bar's panel then shows no bar)."""
    from games import queue
    from games.reading.views.threads import thread_opened, thread_shown

    heard = ((queue.THREAD_OPENED, thread_opened), (queue.THREAD_SHOWN, thread_shown))
    for event, receiver in heard:
        queue.disconnect(event, receiver)
    try:
        yield
    finally:
        for event, receiver in heard:
            queue.connect(event, receiver)


def timed(client, url, runs, status=200):
    """(median ms, median ms of SQL, queries) of GET url through the test client, the
    game page made whole each time (none of its shared parts from the cache)."""
    from django.core.cache import caches

    total, sql, queries = [], [], 0
    for _ in range(runs):
        caches["pages"].clear()
        with sql_clock() as spent:
            start = time.perf_counter()
            response = client.get(url)
            total.append(time.perf_counter() - start)
        assert response.status_code == status, (url, response.status_code)
        sql.append(spent["s"])
        queries = spent["n"]
    return statistics.median(total) * 1000, statistics.median(sql) * 1000, queries


def measure(write, client, game, reader, runs, vendor):
    from django.urls import reverse

    from games.models import GameVisit
    from games.selectors import post_page

    last = _read_state(game, reader)
    detail = reverse("game_detail", args=[game.pk])
    page = post_page(last - UNREAD + 1)  # the page of the first unread post
    url = f"{detail}?page={page}"
    client.get(url)  # the templates compiled, the mark moved to this page's end
    # Interleaved, so that both see the same machine.
    with_state, without = [], []
    for _ in range(runs):
        with_state.append(timed(client, url, 1))
        with without_read_state():
            without.append(timed(client, url, 1))
    ms, sql, queries = (statistics.median(x) for x in zip(*with_state, strict=True))
    base_ms, base_sql, base_queries = (statistics.median(x) for x in zip(*without, strict=True))
    write(
        f"reading.page   the game page, page {page} of {last:,} posts, {SEATS} seats, "
        f"{ROOM_POSTS} Coven posts, {VOTES} votes ({vendor}), read by a Coven member: "
        f"median {ms:.1f} ms ({sql:.1f} ms SQL), {queries:.0f} queries"
    )
    write(
        f"reading.page   the same page without read state (as before issue 15): median "
        f"{base_ms:.1f} ms ({base_sql:.1f} ms SQL), {base_queries:.0f} queries; ratio "
        f"{ms / base_ms:.2f}x (target <= {TARGET:.0f}x), +{queries - base_queries:.0f} queries"
    )
    total, sql, queries = timed(client, detail, runs, status=302)
    write(
        f"reading.land   GET the game without a page: the redirect to the first unread post "
        f"(#{last - UNREAD + 1}), median {total:.1f} ms ({sql:.1f} ms SQL), {queries} queries"
    )
    # The link of a game page whose previous visit ended 300 events ago.
    GameVisit.objects.filter(user=reader, game=game).update(
        previous_index=game.events.count() - 301
    )
    since = f"{reverse('game_since', args=[game.pk])}?visit=previous"
    total, sql, queries = timed(client, since, runs)
    write(
        f"reading.since  'since you last read' over the last 300 events and the unread "
        f"posts: median {total:.1f} ms ({sql:.1f} ms SQL), {queries} queries"
    )
    total, sql, queries = timed(client, reverse("game_list"), runs)
    write(
        f"reading.lobby  the game list with 'N new': median {total:.1f} ms ({sql:.1f} ms "
        f"SQL), {queries} queries"
    )


def run(write, options):
    from django.test import Client

    with throwaway_world("bench_reading", ALLOWED_HOSTS=["testserver"]):
        game, reader = reading_game()
        client = Client()
        client.force_login(reader)
        measure(write, client, game, reader, options.runs, connection.vendor)
