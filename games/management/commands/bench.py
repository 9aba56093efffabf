"""`python manage.py bench` (`make bench`): the engine's and the clock's speed, printed
as numbers.

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


class Command(BaseCommand):
    help = "Run the benchmarks and print their numbers."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=21)
        parser.add_argument("--seconds", type=float, default=5.0)
        parser.add_argument("--clock-games", type=int, default=1000)
        parser.add_argument("--only", choices=["engine", "clock"])

    def handle(self, *args, runs, seconds, clock_games, only, **options):
        if only != "clock":
            self.engine(runs, seconds)
        if only != "engine":
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
