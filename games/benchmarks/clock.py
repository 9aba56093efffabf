"""The clock's speed: what one due game costs a sweep, in this process. The lag from a
deadline to its advance is measured with real workers by the `burst` part.

It runs in a throwaway test database with an in-memory cache and broker, so it never
touches the development data."""

import statistics
import time
from datetime import timedelta

from django.db import connection

from games.benchmarks.world import throwaway_world


def started_games(n):
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

    started_games(n)
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


def run(write, options):
    n = options.clock_games
    with throwaway_world("bench_clock"):
        warm = sweep_times(n, cold=False)
        from games.models import Game

        Game.objects.all().delete()
        cold = sweep_times(n, cold=True)
    vendor = connection.vendor
    for label, times in (("cached state", warm), ("replayed state", cold)):
        ms = statistics.median(times) * 1000
        write(
            f"clock.sweep    {n:,} due games, {label}: median {ms:.2f} ms a game, "
            f"{sum(times):.1f} s in all ({vendor}, one worker)"
        )
