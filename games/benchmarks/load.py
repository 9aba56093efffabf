"""The production shape under load, on this machine: gunicorn and the Celery processes as
docker-compose.yml runs them, with the production settings, against PostgreSQL and Redis
on loopback (loadstack.py), driven by logged-in players over HTTP (loadgen.py).

It creates and drops a database of its own and works in an empty Redis database of its
own, so it never touches the developer's data. One run: 48 players in started 48-seat
Witchhunt games (a 1,000-post thread in the first), sessions made server-side for the
players and through the sign-in page for the onlookers; then
- readers (half players, half onlookers) read the game page and thread pages;
- the 48 players vote again and again for a while, first all in one game (every vote
  takes the game row's lock), then spread over several games;
- the 48 vote at the same moment twice: split 24/24 (every vote stored, no lynch), then
  all for one player (the 25th vote is a majority, W-4: one lynch ends the day and the
  other 23 are told the day is over);
and the database is checked against what the players were told. It prints requests/s,
p50/p95/p99 and errors per action, and the CPU time each part of the stack spent.
Skipped (with a line saying why) without PostgreSQL, Redis, gunicorn or httpx.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import platform
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import loadstack

DEFAULTS = {
    "load_seconds": 20.0,  # the readers' run
    "load_vote_seconds": 10.0,  # each of the two runs of repeated votes
    "load_readers": 32,
    "load_posts": 1000,
    "load_games": 4,
    "load_lock_votes": 200,  # votes timed one at a time for the row lock's ceiling
    "load_database": "witchhunt_load",
}
VOTERS = 48  # every seat of a game (loadseed.SEATS)
GROUPS = 4  # voters move between two targets per group: no target gets near a majority
TARGET_RATE, TARGET_P95, TARGET_BURST = 150.0, 0.300, 1.0  # the targets
TARGET_READ_CPU = 0.010  # issue 29: what 150 reads a second on two cores needs
PASSWORD = "load-benchmark-password-7391"
WARM_UP = 3.0  # seconds of reads before the readers' run


def add_arguments(parser):
    for name, default in DEFAULTS.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)


def run(write, options):
    why = loadstack.unavailable()
    if why:
        write(f"load           skipped: {why}")
        return
    settings = {name: getattr(options, name, default) for name, default in DEFAULTS.items()}
    LoadRun(write, **settings).run()


@contextmanager
def _sigterm_as_interrupt():
    """A SIGTERM ends the run as Ctrl-C does, so everything it started is stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def _quiet(logger):
    """No line per request from the HTTP client in the numbers' output."""
    log = logging.getLogger(logger)
    level = log.level
    log.setLevel(logging.WARNING)
    try:
        yield
    finally:
        log.setLevel(level)


def _ms(seconds):
    return f"{seconds * 1000:.0f} ms"


def _line(summary):
    if not summary.count:
        return "none sent"
    return (
        f"p50 {_ms(summary.p50)}, p95 {_ms(summary.p95)}, p99 {_ms(summary.p99)}, "
        f"max {_ms(summary.max)}, {summary.errors} errors"
        + (f" (first: {summary.first_error})" if summary.first_error else "")
    )


@dataclass
class Cpu:
    """CPU seconds spent by each part of the stack over one stretch of the run."""

    web: float
    celery: float
    database: float
    redis: float
    tool: float
    seconds: float

    def line(self, label, requests):
        per = lambda t: f"{t / max(requests, 1) * 1000:.1f} ms"  # noqa: E731
        return (
            f"load.cpu       {label}: CPU a request: web {per(self.web)}, database "
            f"{per(self.database)}, load tool {per(self.tool)}, Celery {per(self.celery)}; "
            f"cores busy: web {self.web / self.seconds:.2f}, database "
            f"{self.database / self.seconds:.2f}, load tool {self.tool / self.seconds:.2f}, "
            f"Redis {self.redis / self.seconds:.2f} (the whole server)"
        )


class LoadRun:
    def __init__(self, write, **settings):
        self.write = write
        self.s = settings
        self.folder = Path(tempfile.mkdtemp(prefix="witchhunt-load-"))
        self.processes = loadstack.Processes(self.folder)
        self.sink = loadstack.MailSink()
        self.database_url = os.environ["DATABASE_URL"]
        self.redis_url = None
        self.created = False  # the database: dropped at the end only if this run made it
        self.problems = []

    # --- the whole run ---------------------------------------------------------------------
    def run(self):
        with _sigterm_as_interrupt(), _quiet("httpx"):
            self._run()

    def _run(self):
        kept = True
        self.write(
            f"load.machine   {os.cpu_count()} cores ({_cpu_model()}), Python "
            f"{platform.python_version()}, load average {os.getloadavg()[0]:.2f} at the start"
        )
        try:
            self.start()
            self.write(
                "load.stack     as compose runs them: "
                + ", ".join(f"{s.name} ({' '.join(s.argv[:6])})" for s in self.services)
            )
            # In a thread of its own: a caller's thread may already run an event loop (the
            # e2e tests' Playwright, earlier in the same test process), and asyncio.run
            # refuses to start a second one there.
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, self.drive()).result()
            self.processes.stop()
            self.lock_probe()
            self.write(f"load.machine   load average {os.getloadavg()[0]:.2f} at the end")
            kept = bool(self.problems)
        finally:
            self.close(keep_logs=kept)
        if self.problems:
            raise RuntimeError("load: " + "; ".join(self.problems))

    def close(self, *, keep_logs):
        try:
            self.processes.stop()
            self.sink.stop()
        finally:
            try:
                if self.created:
                    loadstack.database_drop(self.database_url, self.s["load_database"])
            finally:
                if self.redis_url:
                    loadstack.redis_release(self.redis_url)
        if keep_logs:
            self.write(f"load           the processes' output is kept in {self.folder}")
        else:
            shutil.rmtree(self.folder, ignore_errors=True)

    # --- start-up ----------------------------------------------------------------------------
    def start(self):
        """Migrate (and collect the static files, as the image's build does) while nothing
        runs; then seed while gunicorn and the workers start, as compose starts them."""
        name = self.s["load_database"]
        loadstack.database_create(self.database_url, name)
        self.created = True
        self.redis_url = loadstack.redis_claim(os.environ["REDIS_URL"])
        self.port = loadstack.free_port()
        servers = {
            "SECRET_KEY": loadstack.new_secret(),
            "DATABASE_URL": loadstack.with_database(self.database_url, name),
            "REDIS_URL": self.redis_url,
            "EMAIL_HOST": loadstack.LOOPBACK,
            "EMAIL_PORT": str(self.sink.start()),
            "TRUSTED_PROXIES": loadstack.LOOPBACK,  # the load tool stands where Caddy does
        }
        compose = loadstack.compose_services()
        (migrate,) = [s for s in compose.values() if s.kind == "migrate"]
        self.env = loadstack.local_env(migrate, servers, self.folder)
        collect = [sys.executable, "manage.py", "collectstatic", "--noinput"]
        with ThreadPoolExecutor(1) as pool:  # WhiteNoise reads the files when web starts
            collected = pool.submit(self.processes.once, "collectstatic", collect, self.env)
            argv = loadstack.local_argv(migrate, port=0, folder=self.folder)
            self.processes.once("migrate", argv, self.env)
            collected.result()

        self.services = [s for s in compose.values() if s.kind in ("web", "worker", "beat")]
        self.kinds = {s.name: s.kind for s in self.services}
        onlookers = self.s["load_readers"] - self.s["load_readers"] // 2
        args = [f"--games={self.s['load_games']}", f"--posts={self.s['load_posts']}"]
        args += [f"--onlookers={onlookers}", f"--password={PASSWORD}"]
        with ThreadPoolExecutor(1) as pool:
            seeding = pool.submit(self.loadseed, "seed", *args)
            for service in self.services:
                argv = loadstack.local_argv(service, port=self.port, folder=self.folder)
                env = loadstack.local_env(service, servers, self.folder)
                self.processes.start(service.name, argv, env)
            loadstack.wait_web(self.port, loadstack.HOST, self.processes)
            seed = self.seed = seeding.result()
        workers = sum(s.kind == "worker" for s in self.services)
        loadstack.wait_workers(self.redis_url, workers, self.processes)
        loadstack.wait_quiet(self.redis_url, self.processes)
        pages = -(-seed["thread_posts"] // seed["per_page"])
        self.write(
            f"load.seed      {VOTERS} players in {len(seed['games'])} started games of "
            f"{VOTERS} seats, {self.s['load_posts']:,} posts in the first game's thread "
            f"({seed['thread_posts']:,} with the system posts, {pages} pages; the posts took "
            f"{seed['posting_seconds']:.1f} s, by the services), {onlookers} onlookers; "
            f"{self.sink.messages} role emails delivered by the workers before the run"
        )

    def loadseed(self, *args):
        argv = [sys.executable, "-m", "games.benchmarks.loadseed", *map(str, args)]
        out = self.processes.once(f"loadseed-{args[0]}", argv, self.env)
        return json.loads(out.strip().splitlines()[-1])

    # --- the load ----------------------------------------------------------------------------
    def sample(self):
        return {
            "web": loadstack.cpu_by_pid(
                groups={p.pid for n, p in self.processes.running if self.kinds[n] == "web"}
            ),
            "celery": loadstack.cpu_by_pid(
                groups={p.pid for n, p in self.processes.running if self.kinds[n] != "web"}
            ),
            "database": loadstack.cpu_by_pid(
                loadstack.database_backends(self.database_url, self.s["load_database"])
            ),
            "redis": loadstack.redis_cpu_seconds(self.redis_url),
            "tool": time.process_time(),
            "at": time.perf_counter(),
        }

    def cpu(self, before, after) -> Cpu:
        spent = {k: loadstack.cpu_spent(before[k], after[k]) for k in ("web", "celery", "database")}
        return Cpu(
            **spent,
            redis=after["redis"] - before["redis"],
            tool=after["tool"] - before["tool"],
            seconds=after["at"] - before["at"],
        )

    async def drive(self):
        from . import loadgen

        seed, s = self.seed, self.s
        http = loadgen.client(self.port, connections=max(VOTERS, s["load_readers"]) + 8)
        async with http:
            cookie = seed["session_cookie"]
            players = loadgen.browsers(
                http, VOTERS, loadstack.HOST, cookies=[{cookie: k} for k in seed["sessions"]]
            )
            onlookers = loadgen.browsers(http, len(seed["onlookers"]), loadstack.HOST, first=VOTERS)
            await self.sign_in(loadgen, onlookers, cookie)
            readers = players[: s["load_readers"] // 2] + onlookers
            await self.reads(loadgen, readers)
            await self.votes(loadgen, players)

    async def sign_in(self, loadgen, onlookers, cookie):
        timings = loadgen.Timings()
        await loadgen.sign_in(onlookers, self.seed["onlookers"], PASSWORD, timings)
        signed_in = sum(cookie in b.cookies for b in onlookers)
        if signed_in != len(onlookers):
            self.problems.append(f"{len(onlookers) - signed_in} onlookers could not sign in")
        self.write(
            f"load.signin    {len(onlookers)} onlookers through the sign-in page at once "
            f"(the password's hash is the slow part): {_line(timings.summary('sign in'))}"
        )
        self._errors(timings)

    async def reads(self, loadgen, readers):
        seed, timings = self.seed, loadgen.Timings()
        thread = (readers, seed["games"][0], seed["thread_posts"], seed["per_page"])
        # Not counted: the first requests of a fresh worker load templates and modules.
        warm = loadgen.Timings()
        await loadgen.read(*thread, min(WARM_UP, self.s["load_seconds"]), warm)
        self._errors(warm)
        before = self.sample()
        seconds = await loadgen.read(*thread, self.s["load_seconds"], timings)
        cpu = self.cpu(before, self.sample())
        actions = [a for a, _ in loadgen.READS]
        total = timings.summary(*actions)
        rate = total.count / seconds
        met = rate >= TARGET_RATE and total.p95 <= TARGET_P95
        self.write(
            f"load.read      {len(readers)} readers for {seconds:.1f} s: {rate:.1f} requests/s, "
            f"{_line(total)} (target >= {TARGET_RATE:.0f}/s with p95 <= {_ms(TARGET_P95)}: "
            f"{'met' if met else 'not met'})"
        )
        for action in actions:
            one = timings.summary(action)
            self.write(
                f"load.read        {action}: {one.count:,} ({one.count / seconds:.1f}/s), "
                f"{_line(one)}"
            )
        self.write(cpu.line("reads", total.count))
        served = (cpu.web + cpu.database) / max(total.count, 1)
        self.write(
            f"load.cpu       a read's web + database CPU: {served * 1000:.1f} ms (target <= "
            f"{TARGET_READ_CPU * 1000:.0f} ms: {'met' if served <= TARGET_READ_CPU else 'not met'};"
            f" two cores would serve {2 / served:.0f} reads/s with the load tool elsewhere)"
        )
        self._errors(timings)

    async def votes(self, loadgen, players):
        seed, s = self.seed, self.s
        games, seats = seed["games"], seed["seats"]
        main = games[0]
        # Voter i is in group i % GROUPS and moves between two targets of its group's own.
        pairs = [
            (seats[VOTERS - 8 + i % GROUPS], seats[VOTERS - 4 + i % GROUPS]) for i in range(VOTERS)
        ]
        prep = loadgen.Timings()
        await loadgen.show_vote_forms(players, [main] * VOTERS, prep)
        self._errors(prep)
        accepted = {}
        spread = [games[i % GROUPS % len(games)] for i in range(VOTERS)]
        for label, where in (
            ("in one game", [main] * VOTERS),
            (f"in {len(set(spread))} games", spread),
        ):
            timings = loadgen.Timings()
            before = self.sample()
            seconds, stored = await loadgen.vote_for(
                players, where, pairs, s["load_vote_seconds"], timings, "vote"
            )
            cpu = self.cpu(before, self.sample())
            one = timings.summary("vote")
            self.write(
                f"load.vote      {VOTERS} voters {label}, again and again for {seconds:.1f} s: "
                f"{one.count / seconds:.1f} votes/s, {_line(one)}"
            )
            self.write(cpu.line(f"votes {label}", one.count))
            self._errors(timings)
            for game, n in stored.items():
                accepted[game] = accepted.get(game, 0) + n
        await self.bursts(loadgen, players, accepted)

    async def bursts(self, loadgen, players, accepted):
        seed, seats, main = self.seed, self.seed["seats"], self.seed["games"][0]
        # 24/24: every vote is a change (nobody votes for these two yet), no majority.
        split = [seats[i % 2] for i in range(VOTERS)]
        seconds, ok = await self.burst(loadgen, players, split, "no majority")
        accepted[main] = accepted.get(main, 0) + sum(ok)
        facts = self.loadseed("facts", "--since", json.dumps(seed["inputs"]))
        self.check_split(facts, accepted, split, ok)

        # Everyone for a third player: the 25th vote is a majority (W-4), the lynch ends
        # the day, and the votes after it are refused.
        target = seats[2]
        since = {str(main): facts[str(main)]["inputs_count"]}
        seconds, ok = await self.burst(loadgen, players, [target] * VOTERS, "a majority forms")
        after = self.loadseed("facts", "--since", json.dumps(since))[str(main)]
        self.check_majority(after, target, ok)
        loadstack.wait_quiet(self.redis_url, self.processes)
        self.write(
            f"load.mail      {self.sink.messages} emails delivered in all (the lynch's phase "
            f"emails after the role emails)"
        )
        n, total, largest, ttl = loadstack.redis_values(self.redis_url, "engine-state")
        inputs = sum(f["inputs_count"] for f in facts.values()) - facts[str(main)]["inputs_count"]
        inputs += after["inputs_count"]
        self.write(
            f"load.cache     {n:,} engine states in Redis after {inputs:,} inputs, "
            f"{total / 2**20:.1f} MiB in all, the largest {largest / 1024:.0f} KiB (an input "
            f"drops the state before it; each kept up to {ttl / 3600:.0f} h)"
        )

    async def burst(self, loadgen, players, targets, label):
        """The players vote at the same moment; then each follows its redirect to the page,
        which says whether the day was already over. Returns (seconds, [accepted?])."""
        timings, main = loadgen.Timings(), self.seed["games"][0]
        seconds, answered = await loadgen.burst(players, main, targets, timings, "burst")
        late = await loadgen.told_the_day_is_over(players, main)
        ok = [yes and not no for yes, no in zip(answered, late, strict=True)]
        one = timings.summary("burst")
        met = seconds <= TARGET_BURST and one.errors == 0
        self.write(
            f"load.burst     {VOTERS} votes at the same moment in one game, {label}: the last "
            f"answered {seconds:.2f} s after the signal (target <= {TARGET_BURST:.0f} s: "
            f"{'met' if met else 'not met'}); {sum(ok)} accepted, {sum(late)} told the day "
            f"was over; {_line(one)}"
        )
        self._errors(timings)
        return seconds, ok

    # --- what the database says ----------------------------------------------------------------
    def check_split(self, facts, accepted, split, ok):
        seats, main = self.seed["seats"], self.seed["games"][0]
        problems = []
        for game, fact in facts.items():
            if len(fact["votes"]) != accepted.get(int(game), 0):
                problems.append(
                    f"game {game} stored {len(fact['votes'])} votes of "
                    f"{accepted.get(int(game), 0)} accepted"
                )
        fact = facts[str(main)]
        sent = dict(zip(seats, split, strict=True))
        if not all(ok) or dict(fact["votes"][-VOTERS:]) != sent:
            problems.append("the split burst's votes are not the last stored, one a seat")
        expected = {t: sorted(v for v, s in sent.items() if s == t) for t in set(split)}
        count = {t: sorted(v) for t, v in (fact["count"] or {}).items()}
        if count != expected:
            problems.append(f"the vote count shows {count}, not {expected}")
        if fact["lynches"] or fact["phase"] != "day 1":
            problems.append(f"after the split: {fact['phase']}, lynches {fact['lynches']}")
        total = sum(len(f["votes"]) for f in facts.values())
        self._check(
            f"every accepted vote stored ({total:,} in {len(facts)} games); the count after the "
            f"split {', '.join(f'{len(v)} for {t}' for t, v in sorted(expected.items()))}; "
            f"no lynch, still day 1",
            problems,
        )

    def check_majority(self, fact, target, ok):
        voters = [seat for seat, yes in zip(self.seed["seats"], ok, strict=True) if yes]
        need = VOTERS // 2 + 1
        problems = []
        if sorted(v for v, _ in fact["votes"]) != sorted(voters):
            problems.append("the stored votes are not those of the players not told it was over")
        if len(voters) != need or any(t != target for _, t in fact["votes"]):
            problems.append(f"{len(voters)} votes for {target} stored, not {need}")
        if fact["lynches"] != [target] or fact["phase"] == "day 1":
            problems.append(f"lynches {fact['lynches']}, phase {fact['phase']}")
        self._check(
            f"{len(voters)} votes for {target} stored (the majority of {VOTERS}), exactly one "
            f"lynch ({', '.join(fact['lynches'])}), now {fact['phase']}; the other "
            f"{VOTERS - len(voters)} were told the day was over",
            problems,
        )

    def _check(self, what, problems):
        self.write(
            f"load.check     {what}: {'FAILED: ' + '; '.join(problems) if problems else 'ok'}"
        )
        self.problems += problems

    def _errors(self, timings):
        for action, errors in timings.errors.items():
            if errors:
                self.problems.append(f"{len(errors)} errors in {action!r}, first {errors[0]}")

    # --- the lock's ceiling --------------------------------------------------------------------
    def lock_probe(self):
        """With the servers stopped: a vote's service call, one at a time, in a game the
        load left in its day (the first has had its lynch)."""
        games = self.seed["games"]
        if len(games) < 2:
            return
        # Two targets no other vote of the run is for: no majority can form.
        targets = ",".join(self.seed["seats"][3:5])
        votes = self.s["load_lock_votes"]
        probe = self.loadseed(
            "lock", f"--game={games[-1]}", f"--votes={votes}", f"--targets={targets}"
        )
        self.write(
            f"load.lock      a vote's service call, the game row locked from its first query "
            f"to its commit, one at a time ({probe['votes']} votes): median "
            f"{_ms(probe['median'])}, p95 {_ms(probe['p95'])}: at most "
            f"{1 / probe['median']:.0f} votes/s into one game however many web servers"
        )


def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()
