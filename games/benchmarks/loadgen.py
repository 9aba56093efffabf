"""The load tool: players over HTTP with asyncio and httpx, on loopback only.

Each simulated player is a browser of its own (`Browser`): its cookies, the CSRF token of
the form it was shown, and the address the proxy names for it. The requests arrive as
Caddy would pass them on: Host the site's name, X-Forwarded-Proto https, X-Forwarded-For
the visitor. The Secure cookies are kept by hand (the connection itself is plain HTTP).
"""

from __future__ import annotations

import asyncio
import math
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from http.cookies import SimpleCookie

import httpx

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
DAY_IS_OVER = "You can only vote by day."
# What readers read, and how often: most read the latest posts.
READS = (
    ("game page", 4),
    ("thread last page", 3),
    ("thread random page", 2),
    ("thread first page", 1),
)


def client(port: int, connections: int) -> httpx.AsyncClient:
    """One connection pool for every browser; its own cookie jar accepts nothing (each
    browser keeps its own cookies) and no proxy from the environment is used."""
    return httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}",
        cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
        limits=httpx.Limits(max_connections=connections),
        timeout=60,
        trust_env=False,
    )


# --- numbers ---------------------------------------------------------------------------------
def percentile(values, q):
    """Nearest-rank percentile of a sorted list."""
    return values[max(0, min(len(values) - 1, math.ceil(q * len(values)) - 1))]


@dataclass
class Summary:
    count: int
    errors: int
    p50: float
    p95: float
    p99: float
    max: float
    first_error: str | None = None


class Timings:
    """Latencies (seconds) and errors, per action."""

    def __init__(self):
        self.seconds = defaultdict(list)
        self.errors = defaultdict(list)

    def add(self, action, seconds, error=None):
        self.seconds[action].append(seconds)
        if error:
            self.errors[action].append(error)

    def summary(self, *actions) -> Summary:
        """The numbers of `actions` together (all zero when none ran)."""
        seconds = [t for a in actions for t in self.seconds[a]]
        errors = [e for a in actions for e in self.errors[a]]
        values = sorted(seconds) or [0.0]
        return Summary(
            count=len(seconds),
            errors=len(errors),
            p50=percentile(values, 0.50),
            p95=percentile(values, 0.95),
            p99=percentile(values, 0.99),
            max=values[-1],
            first_error=errors[0] if errors else None,
        )


# --- a browser -------------------------------------------------------------------------------
@dataclass
class Browser:
    http: httpx.AsyncClient
    address: str  # the visitor's, as the proxy names it
    host: str
    cookies: dict = field(default_factory=dict)
    csrf: str | None = None  # the token of the last form shown

    def _headers(self, post_from: str | None = None) -> dict:
        headers = {"Host": self.host, "X-Forwarded-Proto": "https", "X-Forwarded-For": self.address}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if post_from is not None:  # what a browser sends with a form
            headers["Origin"] = f"https://{self.host}"
            headers["Referer"] = f"https://{self.host}{post_from}"
        return headers

    def _keep(self, response: httpx.Response) -> None:
        for line in response.headers.get_list("set-cookie"):
            for name, morsel in SimpleCookie(line).items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.coded_value

    async def get(self, path: str) -> httpx.Response:
        response = await self.http.get(path, headers=self._headers())
        self._keep(response)
        found = CSRF_INPUT.search(response.text)
        if found:
            self.csrf = found.group(1)
        return response

    async def post(self, path: str, data: dict, *, page: str) -> httpx.Response:
        form = {"csrfmiddlewaretoken": self.csrf or "", **data}
        response = await self.http.post(path, data=form, headers=self._headers(post_from=page))
        self._keep(response)
        return response


def browsers(http, n, host, *, first=0, cookies=()):
    """n browsers, each with an address of its own in 10.0.0.0/8."""
    out = []
    for i in range(first, first + n):
        address = f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256 + 1}"
        out.append(Browser(http, address, host, dict(cookies[i - first]) if cookies else {}))
    return out


async def timed(timings, action, call, check):
    """Run `call()`, time it, and record `check(response)` (an error text or None)."""
    start = time.perf_counter()
    try:
        response = await call()
    except httpx.HTTPError as e:
        timings.add(action, time.perf_counter() - start, f"{type(e).__name__}: {e}")
        return None
    timings.add(action, time.perf_counter() - start, check(response))
    return response


def expect(status, *, contains=None):
    def check(response):
        if response.status_code != status:
            return f"HTTP {response.status_code} on {response.request.url.path}"
        if contains and contains not in response.text:
            return f"{contains!r} not in {response.request.url}"
        return None

    return check


# --- what the players do ---------------------------------------------------------------------
async def sign_in(people, emails, password, timings):
    """Each onlooker signs in through the sign-in page at once, as a browser does."""

    async def one(browser, email):
        await timed(timings, "sign-in page", lambda: browser.get("/accounts/login/"), expect(200))
        await timed(
            timings,
            "sign in",
            lambda: browser.post(
                "/accounts/login/", {"login": email, "password": password}, page="/accounts/login/"
            ),
            expect(302),
        )

    await asyncio.gather(*(one(b, e) for b, e in zip(people, emails, strict=True)))


async def read(readers, game_id, thread_posts, per_page, seconds, timings, seed=2026):
    """Every reader reads pages one after the other for `seconds`, no pause between: the
    game page, the thread's last, a random and the first page. Returns the seconds taken."""
    pages = max(1, math.ceil(thread_posts / per_page))
    base = f"/games/{game_id}/"
    actions, weights = zip(*READS, strict=True)
    deadline = time.perf_counter() + seconds

    def marker(page):  # the page's first post, so a page that is not the one asked fails
        return f'id="p{(page - 1) * per_page + 1}"'

    async def reader(browser, rng):
        while time.perf_counter() < deadline:
            action = rng.choices(actions, weights)[0]
            page = {
                "thread last page": pages,
                "thread first page": 1,
                "thread random page": rng.randint(1, pages),
            }.get(action)
            # The game page at ?page=1: its bare address sends a returning reader on to
            # their first unread post (a redirect), which would be timed instead.
            path = f"{base}?page={page or 1}"
            check = expect(200, contains='id="p' if page is None else marker(page))
            await timed(timings, action, lambda p=path: browser.get(p), check)

    start = time.perf_counter()
    await asyncio.gather(*(reader(b, random.Random(seed + i)) for i, b in enumerate(readers)))
    return time.perf_counter() - start


async def show_vote_forms(voters, game_ids, timings):
    """Each voter opens its game's page once: the vote form and its CSRF token."""
    await asyncio.gather(
        *(
            timed(
                timings,
                "game page (voter)",
                lambda b=b, g=g: b.get(f"/games/{g}/?page=1"),
                expect(200, contains="csrfmiddlewaretoken"),
            )
            for b, g in zip(voters, game_ids, strict=True)
        )
    )


def _vote(browser, game_id, target, timings, action):
    page = f"/games/{game_id}/"
    return timed(
        timings,
        action,
        lambda: browser.post(f"{page}vote/", {"target": target}, page=page),
        expect(302),
    )


async def vote_for(voters, game_ids, targets, seconds, timings, action):
    """Each voter votes again and again for `seconds`, alternating between its two
    targets, in its game. The page each vote leads back to is not fetched (reads are
    measured apart), so its message is dropped as if shown. Returns (seconds taken,
    votes answered as accepted per game: the database must hold every one)."""
    deadline = time.perf_counter() + seconds
    answered = defaultdict(int)

    async def voter(browser, game_id, pair):
        n = 0
        while time.perf_counter() < deadline:
            response = await _vote(browser, game_id, pair[n % 2], timings, action)
            browser.cookies.pop("messages", None)
            answered[game_id] += response is not None and response.status_code == 302
            n += 1

    start = time.perf_counter()
    await asyncio.gather(*(voter(*v) for v in zip(voters, game_ids, targets, strict=True)))
    return time.perf_counter() - start, dict(answered)


async def burst(voters, game_id, targets, timings, action):
    """Every voter POSTs its vote at the same moment (all wait for one signal). Returns
    (seconds from the signal to the last answer, [answered with the redirect?] per voter)."""
    go = asyncio.Event()

    async def one(browser, target):
        await go.wait()
        response = await _vote(browser, game_id, target, timings, action)
        return response is not None and response.status_code == 302

    tasks = [asyncio.create_task(one(b, t)) for b, t in zip(voters, targets, strict=True)]
    await asyncio.sleep(0.2)  # every task is waiting on the signal
    start = time.perf_counter()
    go.set()
    answered = await asyncio.gather(*tasks)
    return time.perf_counter() - start, answered


async def told_the_day_is_over(voters, game_id):
    """Whether the page each voter's vote sent it back to says the day was over (the
    engine's refusal), as the voter's browser follows the redirect."""
    pages = await asyncio.gather(*(b.get(f"/games/{game_id}/?page=1") for b in voters))
    return [DAY_IS_OVER in page.text for page in pages]
