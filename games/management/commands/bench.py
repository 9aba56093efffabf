"""`python manage.py bench` (`make bench`): the engine's, the clock's and post rendering's
speed, printed as numbers.

Recorded in docs/benchmarks.md. The clock's benchmarks run in a throwaway test database
with an in-memory cache and broker, so they never touch the development data.
"""

import json
import random
import statistics
import time
from datetime import timedelta
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from games.engine import records
from games.engine.playout import random_game, random_setup

BENCH_RECORD = "witchhunt-48-players-1115-steps.json"
# The project's copy of the team's shared bench record, installed with the package: the
# benchmark needs no ../shared (tests/games/test_bench_record.py checks the copy is the same).
BENCH_RECORD_PATH = Path(__file__).resolve().parent / "bench_data" / BENCH_RECORD


def replay_ms(record, runs):
    """Median in-process replay time of a record, result included, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ruleset, game, refused, _ = records.replay(record)
        records.result(ruleset, game, refused)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(record["steps"])


def games_per_second(ruleset, players, seconds, seed=2026):
    """Random legal games of `players` played to the end, per second on this one core."""
    rng = random.Random(seed)
    done = steps = ended = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game, played = random_game(rng, random_setup(rng, ruleset, players))
        done += 1
        ended += game.over
        steps += len(played)
    elapsed = time.perf_counter() - start
    return done / elapsed, steps / done, ended / done


# --- the clock --------------------------------------------------------------------------
BEAT_SECONDS = 30.0  # CELERY_BEAT_SCHEDULE's clock-sweep


def _started_games(n):
    """n started eight-seat Witchhunt games (the named cast's deal), made by the services."""
    from accounts.models import User
    from games import services

    cards = [
        ("priest", "holy_villager"),
        ("judge", "elder_witch"),
        ("oracle", "village_spy"),
        ("gravedigger", "basic_villager"),
        ("inquisitor", "basic_villager"),
        ("cupid", "village_lover"),
        ("harlot", "village_lover"),
        ("wizard", "junior_witch"),
    ]
    host = User.objects.filter(email="bench-host@example.com").first() or (
        User.objects.create_user("bench-host@example.com", player_name="BenchHost")
    )
    players = [
        User.objects.filter(email=f"bench{i}@example.com").first()
        or User.objects.create_user(f"bench{i}@example.com", player_name=f"Bench{i}")
        for i in range(len(cards))
    ]
    deal = {"mode": "explicit", "cards": [{"character": c, "type": t} for c, t in cards]}
    games = []
    for i in range(n):
        game = services.game_create(
            host=host, ruleset="witchhunt", title=f"Bench {i}", seats_count=8, deal=deal, seed=i
        )
        for user in players:
            services.game_join(game=game, user=user)
        games.append(services.game_start(game=game, by=host))
    return games


def sweep_times(n, *, cold):
    """Seconds per clock_tick for n due games (each a day ending: the phase advance, its
    events and posts). `cold` clears the state cache first, so every game is replayed."""
    from django.core.cache import cache
    from django.utils import timezone

    from games.models import Game
    from games.services import sweep as clock

    _started_games(n)
    Game.objects.update(deadline_at=timezone.now() - timedelta(seconds=1))
    if cold:
        cache.clear()
    times = []
    while True:
        start = time.perf_counter()
        outcome = clock.clock_tick()
        if outcome is None:
            break
        assert outcome == clock.ADVANCED, outcome
        times.append(time.perf_counter() - start)
    assert len(times) == n, len(times)
    return times


def lag_from_deadline(per_game, n, rng):
    """Seconds from each deadline to its advance, for n games whose deadlines are spread
    over a day, with beats every 30 s at a random phase: wait for the next beat, then for
    the games ahead in that sweep. Returns (median, p99, max)."""
    offset = rng.uniform(0, BEAT_SECONDS)
    deadlines = sorted(rng.uniform(0, 86400) for _ in range(n))
    lags, busy_until = [], 0.0
    for deadline in deadlines:
        beat = offset + BEAT_SECONDS * -(-(deadline - offset) // BEAT_SECONDS)
        done = max(beat, busy_until) + per_game
        busy_until = done
        lags.append(done - deadline)
    lags.sort()
    return statistics.median(lags), lags[int(len(lags) * 0.99)], lags[-1]


# --- post rendering ---------------------------------------------------------------------
def post_cases(n=None):
    """The worst posts we know for a Markdown parser, each as long as a post may be: runs
    that leave a parser looking for a closer that never comes, and nesting."""
    from games.markup import MAX_DEPTH, MAX_LENGTH

    n = n or MAX_LENGTH

    def fill(unit, length=n):
        return (unit * (length // len(unit) + 1))[:length]

    def halves(first, second):
        return fill(first, n // 2) + fill(second, n - n // 2)

    forum_post = (
        "> **Bob** wrote in #12:\n> I was with Cat all night, and she can vouch for me.\n\n"
        "I don't buy it, *Bob*. Here is my case:\n\n"
        "1. You voted Dan on day 1, then **unvoted** when he claimed.\n"
        "2. Your reads changed after the [night post](https://example.com/games/4/#p40).\n"
        "3. Cat never confirmed.\n\n"
        "My reads so far:\n- Ann: town\n- Eve: ~~scum~~ null\n- Fay: scum-lean\n\n"
        "`vote: bob`\n\n"
    )
    cases = {
        "a real forum post, over and over": fill(forum_post),
        "brackets [": fill("["),
        "image openers ![": fill("!["),
        "stars *": fill("*"),
        "underscores _": fill("_"),
        "tildes ~": fill("~"),
        "nested [[...]]": halves("[", "]"),
        "nested [[...a]]": fill("[", n // 2) + "a" + fill("]", n - n // 2 - 1),
        "link openers [a": fill("[a"),
        "link closers a]": fill("a]"),
        "[ (](": fill("[ (]("),
        "![[]()": fill("![[]()"),
        "unclosed links [a](<b": fill("[a](<b"),
        "unclosed links [a](b": fill("[a](b"),
        'unclosed titles [a](b "': fill('[a](b "'),
        "emphasis *a": fill("*a"),
        "emphasis *a_": fill("*a_ "),
        "emphasis openers _a": fill("_a "),
        "emphasis closers a_": fill("a_ "),
        "nested strong *a **a": halves("*a **a ", " a** a*"),
        "a**b c*": "a**b" + fill("c* ", n - 4),
        "[ a_": fill("[ a_"),
        "**x [": fill("**x ["),
        "strikethrough ~~a": fill("~~a "),
        "backticks `": fill("`"),
        "backtick runs e`, e``, ...": "".join("e" + "`" * i for i in range(1, 400))[:n],
        "backticks `a": fill("`a"),
        "link reference definitions": (
            "".join(f"[{i}]: http://x.example/{i}\n" for i in range(n))[: n // 2]
            + fill("[1] ", n - n // 2)
        ),
        "link references [a][a]": "[a]: http://x.example\n" + fill("[a][a] ", n - 22),
        "< run": fill("<"),
        "& run": fill("&"),
        "entities &#": fill("&#"),
        "autolinks <http://": fill("<http://"),
        "<!-- run": fill("<!--"),
        "backslashes": fill("\\"),
        "quotes > > > (too deep)": fill("> "),
        "dashes - - - (one rule)": fill("- "),
        "lists - - - a (too deep)": fill("- ", n - 1) + "a",
        "numbered 1. 1. 1. (too deep)": fill("1. "),
        "indented lists (too deep)": "".join("  " * i + "* a\n" for i in range(n))[:n],
        "quotes and lists > - > - (too deep)": fill("> - "),
        f"quotes {MAX_DEPTH} deep, every line": fill("> " * MAX_DEPTH + "a\n"),
        f"lists {MAX_DEPTH} deep, over and over": fill(
            "".join("  " * i + "- a\n" for i in range(MAX_DEPTH))
        ),
        "short lines a\\n": fill("a\n"),
        "a flat list - a": fill("- a\n"),
        "a numbered list 1. a": fill("1. a\n"),
        "quoted lines > a": fill("> a\n"),
        "tags <a ": fill("<a "),
        "hard breaks": fill("a  \n"),
        "headings #": fill("# a\n"),
        "setext headings": fill("a\n---\n"),
        "fences ```": fill("```\n"),
        "spaces and tabs": "a" + fill(" \t", n - 2) + "a",
        "pipes |a": fill("|a"),
        "one long word": fill("a"),
        "combining marks (Zalgo)": fill("a" + "\u0300" * 300),
    }
    return {name: text[:n] for name, text in cases.items()}


def post_render_ms(text, runs):
    """(median, worst) CPU ms to clean, render and sanitise one post as the services do
    before storing it (services.posts.post_body), and whether it is refused; a refused post
    costs what it took to refuse it. CPU time, not wall time: on a busy machine the wall
    clock counts other processes' turns too."""
    from games.engine import GameRuleError
    from games.services.posts import post_body

    times, refused = [], False
    for _ in range(runs):
        start = time.process_time()
        try:
            post_body(text)
        except GameRuleError:
            refused = True
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000, max(times) * 1000, refused


class Command(BaseCommand):
    help = "Run the benchmarks and print their numbers."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=21)
        parser.add_argument("--seconds", type=float, default=5.0)
        parser.add_argument("--clock-games", type=int, default=1000)
        parser.add_argument("--only", choices=["engine", "posts", "clock"])

    def handle(self, *args, runs, seconds, clock_games, only, **options):
        if only in (None, "engine"):
            self.engine(runs, seconds)
        if only in (None, "posts"):
            self.posts(runs)
        if only in (None, "clock"):
            self.clock(clock_games)

    def engine(self, runs, seconds):
        with open(BENCH_RECORD_PATH, encoding="utf-8") as f:
            record = json.load(f)
        records.replay(record)  # warm up imports and caches
        ms, n = replay_ms(record, runs)
        self.stdout.write(
            f"engine.replay  {BENCH_RECORD}: median {ms:.2f} ms over {runs} runs "
            f"({n} steps, {n / ms * 1000:,.0f} steps/s; target <= 20 ms)"
        )
        for ruleset, players in (("witchhunt", 20), ("werewolf", 20)):
            rate, avg, ended = games_per_second(ruleset, players, seconds)
            self.stdout.write(
                f"engine.playout {ruleset}, {players} players: {rate:,.0f} games/s "
                f"on one core ({avg:.0f} accepted steps a game, {ended:.0%} "
                "played to a win; target >= 300 games/s)"
            )

    def clock(self, n):
        from games.services import sweep as clock
        from witchhunt.celery import app

        # A throwaway database, cache and broker: phase-change emails queued by the
        # advances go nowhere, and no cached state can meet the real games' ids.
        app.conf.update(broker_url="memory://localhost/", broker_transport_options={})
        caches = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            with override_settings(
                CACHES=caches, EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"
            ):
                warm = sweep_times(n, cold=False)
                from games.models import Game

                Game.objects.all().delete()
                cold = sweep_times(n, cold=True)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        vendor = connection.vendor
        for label, times in (("cached state", warm), ("replayed state", cold)):
            ms = statistics.median(times) * 1000
            self.stdout.write(
                f"clock.sweep    {n:,} due games, {label}: median {ms:.2f} ms a game, "
                f"{sum(times):.1f} s in all ({vendor}, one worker)"
            )
        per_game = statistics.median(warm)
        rng = random.Random(2026)
        for games in (n, 100 * n):
            median, p99, worst = lag_from_deadline(per_game, games, rng)
            self.stdout.write(
                f"clock.lag      {games:,} deadlines a day, 30 s beat: median {median:.1f} s, "
                f"p99 {p99:.1f} s, max {worst:.1f} s from deadline to advance (computed)"
            )
        # The worst burst: every game shares one deadline, just after a beat.
        burst = BEAT_SECONDS + n * per_game
        self.stdout.write(
            f"clock.lag      {n:,} games sharing one deadline: the last advances at most "
            f"{burst:.1f} s after it (computed: one beat + {n:,} x {per_game * 1000:.2f} ms; "
            f"sweeps longer than {clock.SWEEP_SECONDS:.0f} s go on at the next beat)"
        )

    def posts(self, runs):
        from games.markup import MAX_LENGTH

        post_render_ms("warm *up* [the](http://x.example) parser", 3)
        worst = None
        for name, text in post_cases().items():
            median, most, refused = post_render_ms(text, runs)
            self.stdout.write(
                f"post.render    {name}, {len(text):,} chars: median {median:.2f} ms, "
                f"max {most:.2f} ms CPU over {runs} runs{' (refused)' if refused else ''}"
            )
            if worst is None or median > worst[1]:
                worst = (name, median)
        self.stdout.write(
            f"post.render    worst case: {worst[0]}, median {worst[1]:.2f} ms CPU "
            f"(clean + render + sanitise a {MAX_LENGTH:,}-character post; target <= 50 ms each)"
        )
