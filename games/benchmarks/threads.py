"""The threads' speed: the game page's thread against a bare template of the same text,
the vote history, the final reveal of a long game, and the last page of a long thread.

It runs in a throwaway test database (its own name on PostgreSQL, so it never meets a
test run's) with an in-memory cache and broker, like the clock's part."""

import random
import statistics
import time
from contextlib import contextmanager
from datetime import timedelta

from django.db import connection

from games.benchmarks.world import throwaway_world

SEATS = 48
POSTS = 1000
DAYS = 10
VOTES = 3000
LONG_THREAD = 10_000
READER_ZONE = "Europe/Paris"
TYPES = {"holy_villager": 6, "elder_witch": 8, "junior_witch": 8, "village_spy": 4,
         "village_lover": 4, "basic_villager": 18}  # fmt: skip

# The baseline: the same posts' text (number, author, time, phase, body) in one plain loop,
# without the thread's markup, links or attributes; and, stricter, the bodies alone.
BARE_TEXT = (
    "{% for post in posts %}<li>#{{ post.number }} {{ post.author.player_name }} "
    '{{ post.created_at|date:"D j M, H:i" }} {{ post.phase }} {{ post.body_html|safe }}</li>'
    "{% endfor %}"
)
BARE_BODIES = "{% for post in posts %}<li>{{ post.body_html|safe }}</li>{% endfor %}"


# --- realistic posts -------------------------------------------------------------------------
SENTENCES = (
    "I don't buy it.",
    "Bob's vote on day 1 looked like bussing to me.",
    "Can we get a claim from everyone who hasn't posted today?",
    "That's a **town** read for me, at least for now.",
    "The quiet ones worry me more than the loud ones.",
    "If the Coven had a Judge they would have used it by now.",
    "I'm not voting until I hear from *Cat*.",
    "Remember what happened to the last Oracle who claimed early.",
    "Here's the vote count as I have it, correct me if it's wrong.",
    "We have two days of votes to compare: look at who moved when.",
    "Nobody's defended Eve, which is itself a tell.",
    "Lurkers get lynched, that's the deal.",
    "See the [rules](https://example.com/rules/#w-4) on majority lynches.",
    "Gut says scum, head says null.",
)
READS = ("town", "scum", "null", "scum-lean", "town-lean", "no idea")


def post_text(rng, names, number):
    """A forum post: a line or two, a case with a list, a quote of an earlier post, reads."""
    parts = []
    if number > 1 and rng.random() < 0.3:
        quoted = " ".join(rng.sample(SENTENCES, 2))
        parts.append(f"> **{rng.choice(names)}** wrote in #{rng.randrange(1, number)}:\n> {quoted}")
    parts.append(" ".join(rng.sample(SENTENCES, rng.randint(1, 4))))
    if rng.random() < 0.35:
        case = "\n".join(f"{i}. {rng.choice(SENTENCES)}" for i in range(1, rng.randint(2, 5)))
        parts.append(f"Here is my case against {rng.choice(names)}:\n\n{case}")
    if rng.random() < 0.25:
        reads = "\n".join(f"- {n}: {rng.choice(READS)}" for n in rng.sample(names, 5))
        parts.append(f"My reads so far:\n\n{reads}")
    if rng.random() < 0.2:
        parts.append(f"`vote: {rng.choice(names).lower()}`")
    return "\n\n".join(parts)


# --- the games -------------------------------------------------------------------------------
def _users(prefix, n):
    """n players and a host."""
    from accounts.models import User

    players = [
        User.objects.create_user(f"{prefix}{i}@example.com", player_name=f"{prefix}{i:02d}")
        for i in range(n)
    ]
    return players, User.objects.create_user(f"{prefix}-host@example.com", player_name=f"{prefix}H")


def _add_posts(game, n, *, thread="public", days=1, rng=None, moderator=None):
    """n posts by the game's seats (a moderator's now and then in the public thread),
    numbered after the thread's last, a quarter of them replies, spread over `days` days
    of the game's phases; returns them."""
    from games.models import Post
    from games.services.posts import post_body

    rng = rng or random.Random(13)
    seats = list(game.seats.select_related("user").order_by("position"))
    names = [s.user.player_name for s in seats]
    first = Post.objects.filter(game=game, thread=thread).count()
    posts = []
    for i in range(1, n + 1):
        number = first + i
        body = post_body(post_text(rng, names, number))
        seat = rng.choice(seats)
        mod = moderator is not None and rng.random() < 0.01
        posts.append(
            Post(
                game=game,
                thread=thread,
                number=number,
                kind="moderator" if mod else "player",
                seat=None if mod else seat,
                author=moderator if mod else seat.user,
                body=body.text,
                body_html=body.html,
                phase=f"day {1 + (i - 1) * days // n}",
            )
        )
    Post.objects.bulk_create(posts, batch_size=500)
    earlier = list(Post.objects.filter(game=game, thread=thread).values_list("pk", flat=True))
    start = game.started_at or game.created_at
    for i, post in enumerate(posts):
        post.created_at = start + timedelta(minutes=7 * (first + i))  # a few days' worth
        if thread == "public" and rng.random() < 0.25:
            post.reply_to_id = rng.choice(earlier[: first + i] or earlier[:1])
    Post.objects.bulk_update(posts, ["created_at", "reply_to"], batch_size=500)
    return posts


def day_game(prefix, title, seed, days):
    """A started 48-seat Witchhunt game drawn from every character, moved on to Day `days`
    by the moderator (the clock's announcements in the thread); returns (game, users, host)."""
    from games import services
    from games.engine import CHARACTERS

    users, host = _users(prefix, SEATS)
    game = services.game_create(
        host=host,
        ruleset="witchhunt",
        title=title,
        seats_count=SEATS,
        seed=seed,
        deal={"mode": "pool", "characters": sorted(CHARACTERS), "types": TYPES},
        options={"stalemate_cycles": 0},  # quiet days and nights never end it (W-69a)
    )
    for user in users:
        services.game_join(game=game, user=user)
    game = services.game_start(game=game, by=host)
    for _ in range(2 * (days - 1)):
        services.phase_advance(game=game, by=host)
        game.refresh_from_db()
    return game, users, host


def thread_game():
    """48 seats through DAYS days and nights, then POSTS posts over those days and VOTES
    public day votes; returns (game, host, reader)."""
    game, users, host = day_game("tp", "Threads", 13, DAYS)
    _add_posts(game, POSTS, days=DAYS, moderator=host)
    _add_votes(game, VOTES)
    reader_user = users[0]
    reader_user.time_zone = READER_ZONE
    reader_user.save()
    return game, host, reader_user


def _add_votes(game, n, *, phase=None, seed=7):
    """n public day votes and withdrawals spread over the game's days (all on `phase`
    when given), as the engine writes them (GameEvent rows after the game's last)."""
    from games.models import GameEvent

    rng = random.Random(seed)
    names = list(game.seats.values_list("name", flat=True))
    first = GameEvent.objects.filter(game=game).count()
    rows = []
    for i in range(n):
        voter = rng.choice(names)
        day = 1 + i * DAYS // n
        if rng.random() < 0.2:
            kind, data = "unvote", {"voter": voter}
        else:
            kind, data = "vote", {"voter": voter, "target": rng.choice(names)}
        rows.append(
            GameEvent(
                game=game,
                index=first + i,
                kind=kind,
                phase=phase or f"day {day}",
                audience="public",
                data=data,
            )
        )
    GameEvent.objects.bulk_create(rows, batch_size=500)


def long_game():
    """The bench record's 48-player game (1,115 steps, to the Witches' win on day 35)
    played through the services as the inputs part plays it, with 3,000 posts in its
    threads; returns it."""
    from games.engine import GameRuleError

    from .inputs import Player, bench_game, bench_record

    record = bench_record()
    player = Player(*bench_game(record))
    for step in record["steps"]:
        try:
            player.play(step)
        except GameRuleError:
            pass  # refused, as the record's replay refuses it: nothing is stored
    game = player.game
    game.refresh_from_db()
    _add_posts(game, 1500, days=35, moderator=player.host)
    _add_posts(game, 750, thread="coven", days=35)
    _add_posts(game, 750, thread="afterlife", days=35)
    return game


# --- measuring ----------------------------------------------------------------------------------
@contextmanager
def sql_clock():
    """The wall time spent in the database inside the block: spent["s"] (seconds) and
    spent["n"] (queries), and this process's CPU time in them, spent["cpu"]."""
    spent = {"s": 0.0, "n": 0, "cpu": 0.0}

    def wrapper(execute, sql, params, many, context):
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return execute(sql, params, many, context)
        finally:
            spent["s"] += time.perf_counter() - start
            spent["cpu"] += time.process_time() - cpu
            spent["n"] += 1

    with connection.execute_wrapper(wrapper):
        yield spent


def cpu_seconds(fn):
    start = time.process_time()
    fn()
    return time.process_time() - start


def view_ms(client, url, runs, *, whole=False):
    """(median ms, median ms of SQL, queries) of GET url through the test client; `whole`:
    each GET makes the game page whole, none of its shared parts from the cache."""
    from django.core.cache import caches

    total, sql, queries = [], [], 0
    for _ in range(runs):
        if whole:
            caches["pages"].clear()
        with sql_clock() as spent:
            start = time.perf_counter()
            response = client.get(url)
            total.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
        sql.append(spent["s"])
        queries = spent["n"]
    return statistics.median(total) * 1000, statistics.median(sql) * 1000, queries


def thread_part(game, page, number):
    """CPU seconds to prepare and render the game page's thread part, not counting its
    queries: the selector's page of the thread, then games/_thread.html, the template
    game_detail.html includes for it. `page` is the rest of the game page (its selector's),
    made once: its seats, votes and setup are not the thread's. CPU time, not wall time:
    on a busy machine the wall clock counts other processes' turns too."""
    from django.template.loader import get_template

    from games.selectors import thread_page

    template = get_template("games/_thread.html")
    with sql_clock() as spent:
        start = time.process_time()
        page.posts = thread_page(game, page=number, names=page.names)
        template.render({"page": page, "game": game})
        elapsed = time.process_time() - start
    return elapsed - spent["cpu"]


def thread_posts(game, numbers):
    """The posts a page shows, as Post rows with their authors (the bare baseline's)."""
    from games.models import Post

    return list(
        Post.objects.filter(game=game, thread="public", number__in=numbers)
        .select_related("author")
        .order_by("number")
    )


def last_page_sql(game, last):
    """The thread selector's reads of page `last` of the public thread."""
    from games.selectors import thread_page

    thread_page(game, page=last)


def history_pages(write, client, game, runs):
    """An earlier day's votes on their own page."""
    from django.urls import reverse

    url = reverse("game_votes_day", args=[game.pk, 5])
    total, sql, queries = view_ms(client, url, runs)
    write(
        f"votes.history  day 5's votes on their own page ({VOTES // DAYS:,} votes): median "
        f"{total:.1f} ms, {sql:.1f} ms SQL, {queries} queries"
    )


def measure_thread(write, client, game, reader, runs, vendor):
    from django.template import engines
    from django.urls import reverse
    from django.utils import timezone

    from games.selectors.game import ThreadAsk, game_page

    page = 10  # posts 451-500: a full page, in the middle of the thread
    engine = engines["django"]
    bare_text, bare_bodies = engine.from_string(BARE_TEXT), engine.from_string(BARE_BODIES)
    with timezone.override(reader.zoneinfo):
        rest = game_page(game, reader, ThreadAsk(page=page))
        thread_part(game, rest, page)  # the templates are compiled once
        posts = thread_posts(game, range((page - 1) * 50 + 1, page * 50 + 1))
        # Interleaved, so that the three see the same machine.
        times = [
            (
                thread_part(game, rest, page),
                cpu_seconds(lambda: bare_text.render({"posts": posts})),
                cpu_seconds(lambda: bare_bodies.render({"posts": posts})),
            )
            for _ in range(runs)
        ]
        ms, text_ms, bodies_ms = (statistics.median(t) * 1000 for t in zip(*times, strict=True))
    write(
        f"thread.render  page {page} of {POSTS:,} posts, {SEATS} seats, {len(posts)} posts "
        f"shown: the page's thread part (the selector's preparation without its SQL, then "
        f"games/_thread.html) median {ms:.2f} ms CPU over {runs} runs"
    )
    write(
        f"thread.render  bare loop of the same text (number, author, time, phase, body): "
        f"{text_ms:.2f} ms CPU; ratio {ms / text_ms:.2f}x (target <= 2x)"
    )
    write(
        f"thread.render  bare loop of the bodies alone: {bodies_ms:.2f} ms CPU; ratio "
        f"{ms / bodies_ms:.2f}x"
    )
    detail = reverse("game_detail", args=[game.pk])
    for whole, how in ((True, "made whole"), (False, "its shared parts cached")):
        total, sql, queries = view_ms(client, f"{detail}?page={page}", runs, whole=whole)
        write(
            f"thread.view    GET the game page, page {page} (the whole view through the test "
            f"client, {vendor}; {how}): median {total:.1f} ms, {sql:.1f} ms SQL, "
            f"{queries} queries"
        )


def measure_history(write, client, game, runs):
    from django.urls import reverse

    # ?page=1: the game's bare address lands a returning reader on their first unread post
    # (a redirect), and this measures the page.
    url = reverse("game_detail", args=[game.pk]) + "?page=1"
    total, sql, queries = view_ms(client, url, runs, whole=True)
    write(
        f"votes.history  the game page on day {DAYS} of a game with {VOTES:,} votes (the "
        f"whole view, made whole): median {total:.1f} ms, {sql:.1f} ms SQL, {queries} queries"
    )
    history_pages(write, client, game, runs)


def measure_reveal(write, client, runs):
    from django.core.cache import cache
    from django.urls import reverse

    game = long_game()
    url = reverse("game_reveal", args=[game.pk])
    total, sql, queries = view_ms(client, url, runs)
    write(
        f"reveal.view    the bench record's game ({game.events.count():,} events, "
        f"{game.posts.count():,} posts, 48 seats), state cached: median {total:.1f} ms, "
        f"{sql:.1f} ms SQL, {queries} queries"
    )
    cache.clear()  # the next view replays the game from its inputs
    total, sql, queries = view_ms(client, url, 1)
    write(
        f"reveal.view    the same, state replayed (cache cleared): {total:.1f} ms, "
        f"{sql:.1f} ms SQL, {queries} queries"
    )


def measure_long_thread(write, client, game, runs, vendor):
    from django.urls import reverse

    _add_posts(game, LONG_THREAD - POSTS, days=DAYS)
    count = game.posts.filter(thread="public").count()
    last = (count - 1) // 50 + 1
    sql_times = []
    for _ in range(runs):
        with sql_clock() as spent:
            last_page_sql(game, last)
        sql_times.append(spent["s"])
    write(
        f"thread.last    the last page ({last}) of a {count:,}-post thread: the thread "
        f"selector's SQL median {statistics.median(sql_times) * 1000:.2f} ms "
        f"({spent['n']} queries, {vendor})"
    )
    url = f"{reverse('game_detail', args=[game.pk])}?page={last}"
    total, sql, queries = view_ms(client, url, runs)
    write(
        f"thread.last    GET that page (the whole view): median {total:.1f} ms, {sql:.1f} ms "
        f"SQL, {queries} queries"
    )


def run(write, options):
    from django.test import Client

    runs = options.runs
    with throwaway_world("bench_threads", ALLOWED_HOSTS=["testserver"]):
        vendor = connection.vendor
        game, _, reader = thread_game()
        client = Client()
        client.force_login(reader)
        measure_thread(write, client, game, reader, runs, vendor)
        measure_history(write, client, game, runs)
        measure_reveal(write, client, runs)
        measure_long_thread(write, client, game, runs, vendor)
