"""An input's cost over a whole game, and a vote's end to end, through the services.

The 1,115-step bench record (48 players) is played through the services a player's POST
reaches (vote_cast, seat_input_apply, the moderator's acts), minus HTTP, each input its
own request (Django's request signals fire around it). It runs in a throwaway database:
on PostgreSQL when DATABASE_URL names one (a database of its own beside the server's
others), with Redis as the cache when REDIS_URL is set (under a prefix of its own), as in
production; the broker is in memory, so the phase emails go nowhere.
"""

import json
import statistics
import time
from contextlib import contextmanager
from typing import NamedTuple

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection

from games.benchmarks.world import throwaway_world

from .engine import BENCH_RECORD, BENCH_RECORD_PATH

FIRST = LAST = 100  # the inputs compared: the game's first and last hundred
BENCH_DB = "witchhunt_bench_inputs"  # never the test suite's database, which may be in use


def bench_record():
    with open(BENCH_RECORD_PATH, encoding="utf-8") as f:
        return json.load(f)


def bench_game(record):
    """The record's game, started through the services: its players are users whose player
    names are the record's names, seated in its order with its cards (an explicit deal in
    seat order). Returns (game, host, {seat name: user})."""
    from accounts.models import User
    from games import services

    host = User.objects.create_user("bench-inputs-host@example.com", player_name="BenchHost")
    users = {
        p["name"]: User.objects.create_user(
            f"bench-inputs-{p['name']}@example.com", player_name=p["name"]
        )
        for p in record["players"]
    }
    cards = [{k: v for k, v in p.items() if k != "name"} for p in record["players"]]
    game = services.game_create(
        host=host,
        ruleset=record["ruleset"],
        title="Bench inputs",
        seats_count=len(cards),
        seed=record["seed"],
        options=record.get("options") or {},
        deal={"mode": "explicit", "cards": cards, "shuffle": False},
    )
    for user in users.values():
        services.game_join(game=game, user=user)
    return services.game_start(game=game, by=host), host, users


class Player:
    """Plays a record's steps through the services a POST reaches, as its seats' users
    and its moderator; keeps who sits in each seat (a replacement takes it over)."""

    def __init__(self, game, host, users):
        from accounts.models import User

        self.game = game
        self.host = host
        self.users = dict(users)
        self.stranger = User.objects.create_user(
            "bench-inputs-stranger@example.com", player_name="BenchStranger"
        )
        self.replacements = 0

    def play(self, step):
        """Apply one step; GameRuleError when the services refuse it."""
        from accounts.models import User
        from games import services

        game = self.game
        if "actor" in step:
            user = self.users.get(step["actor"], self.stranger)  # no seat: refused
            rest = {k: v for k, v in step.items() if k != "actor"}
            if rest.get("action") == "vote" and set(rest) == {"action", "target"}:
                return services.vote_cast(game=game, user=user, target=rest["target"])
            return services.seat_input_apply(game=game, user=user, step=rest)
        if step.get("advance") == "phase":
            return services.phase_advance(game=game, by=self.host)
        if step.get("advance") == "midnight":
            return services.midnight_pass(game=game)
        if step.get("moderator") == "remove":
            return services.player_remove(game=game, seat_name=step["player"], by=self.host)
        if step.get("moderator") == "replace":
            self.replacements += 1
            n = self.replacements
            new = User.objects.create_user(
                f"bench-inputs-new{n}@example.com", player_name=f"BenchNew{n}"
            )
            services.player_replace(game=game, seat_name=step["player"], new_user=new, by=self.host)
            self.users[step["player"]] = new
            return None
        if step.get("moderator") == "stalemate":
            return services.stalemate_declare(game=game, by=self.host)
        raise ValueError(f"the bench cannot play {step!r}")


@contextmanager
def one_request():
    # Each input its own request: Django's request signals around it (the engine state's
    # memo lives for one request). The database connection is the caller's own, kept
    # across them, as the test client keeps it.
    request_started.disconnect(close_old_connections)
    request_started.send(sender=__name__)
    request_started.connect(close_old_connections)
    try:
        yield
    finally:
        request_finished.disconnect(close_old_connections)
        request_finished.send(sender=__name__)
        request_finished.connect(close_old_connections)


@contextmanager
def _counting(counts):
    def count(execute, sql, params, many, context):
        counts[-1] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield


class Played(NamedTuple):
    step: dict
    wall: float  # seconds, the database's and the cache's time included
    cpu: float  # seconds of this process's CPU: steadier on a busy machine
    statements: int
    refused: bool
    load: float | None  # seconds to load the state after it as a page view does (running)


def play_record(record):
    """Play every step of `record` through the services, each its own request; returns
    the game and a Played per step, in order."""
    from games.engine import GameRuleError
    from games.models import Game
    from games.selectors import game_state_if_running

    player = Player(*bench_game(record))
    out, counts = [], [0]
    with _counting(counts):
        for step in record["steps"]:
            counts.append(0)
            refused = False
            with one_request():
                wall, cpu = time.perf_counter(), time.process_time()
                try:
                    player.play(step)
                except GameRuleError:
                    refused = True
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            statements = counts[-1]
            game, load = Game.objects.get(pk=player.game.pk), None
            if game.status == Game.Status.RUNNING:
                load = time.perf_counter()
                game_state_if_running(game)
                load = time.perf_counter() - load
            out.append(Played(step, wall, cpu, statements, refused, load))
    return player.game, out


def check_played(game, record, played):
    """The game the services played is the record's: the same steps refused, the rest
    stored in order (else the numbers would be of another game)."""
    from games.archive.selectors import record_json
    from games.engine import records

    ruleset, _, inputs, _ = records.start(record)
    _, _, refused, _ = records.replay(record)
    expected = [s["step"] for s in refused]
    got = [i for i, p in enumerate(played) if p.refused]
    assert got == expected, f"the services refused {got[:5]}…, the engine {expected[:5]}…"
    accepted = [inp.to_step() for i, inp in enumerate(inputs) if i not in set(expected)]
    assert json.loads(record_json(game))["steps"] == accepted


def _throwaway_world():
    """A database, cache and broker of the bench's own (see the module's docstring); the
    cache is Redis when the site has one, and connections are kept as in production."""
    cache = None
    if settings.REDIS_URL:
        cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache"}
        cache |= {"LOCATION": settings.REDIS_URL, "KEY_PREFIX": "witchhunt-bench-inputs"}
    return throwaway_world(BENCH_DB, cache=cache, conn_max_age=60)


def _ms(values):
    return statistics.median(values) * 1000


def run(write, options):
    record = bench_record()
    with _throwaway_world():
        game, played = play_record(record)
        check_played(game, record, played)
    where = connection.vendor + (", Redis cache" if settings.REDIS_URL else ", local cache")
    first, last = played[:FIRST], played[-LAST:]
    for what in ("wall", "cpu"):
        a = _ms([getattr(p, what) for p in first])
        b = _ms([getattr(p, what) for p in last])
        write(
            f"inputs.flat    {BENCH_RECORD} through the services ({where}), {what} time: "
            f"median {a:.2f} ms for the first {FIRST} inputs, {b:.2f} ms for the last {LAST}: "
            f"{b / a:.2f}x (target <= 1.2x)"
        )
    running = [p for p in played if p.load is not None]
    write(
        f"inputs.load    the state as a page view loads it ({where}): median "
        f"{_ms([p.load for p in running[:FIRST]]):.2f} ms after the first {FIRST} inputs, "
        f"{_ms([p.load for p in running[-LAST:]]):.2f} ms after the last {LAST}"
    )
    votes = [p for p in played if not p.refused and p.step.get("action") == "vote"]
    statements = sorted(p.statements for p in votes)
    write(
        f"inputs.vote    {len(votes)} accepted votes end to end ({where}): median "
        f"{_ms([p.wall for p in votes]):.2f} ms ({_ms([p.cpu for p in votes]):.2f} ms CPU), "
        f"{statistics.median(statements):.0f} statements, the most {statements[-1]} (a vote "
        "that ends the day); target <= 10 ms, <= 8 statements"
    )
    accepted = [p.statements for p in played if not p.refused]
    refusals = [p.statements for p in played if p.refused]
    write(
        f"inputs.writes  {len(accepted)} accepted inputs: median {statistics.median(accepted):.0f}"
        f" statements, the most {max(accepted)}; {len(refusals)} refused: median "
        f"{statistics.median(refusals):.0f} (as sent: SQLite's BEGIN is one, PostgreSQL's "
        "BEGIN and COMMIT are not)"
    )
