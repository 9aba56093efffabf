"""Twin games for the non-interference tests (issue 25): the same story played twice, once
with a hidden input and once without, at the same frozen moment and with the same row ids,
and everything a viewer who may not see that input can reach, read from both.

Each twin is played in a savepoint that is rolled back, the database's id sequences set
back and every cache emptied before the next, so the twins differ only in the hidden input:
any difference in what a viewer is served is a side channel.

What a viewer reads (`Reader`): the pages a member or a visitor opens (the game page and its
thread pages, the live poll with and without the tag a poller kept from before the hidden
input, "since you last read" and its link, the role page, the game list, notifications,
the vote pages, the fair deal, profiles, the health endpoint, the game's calendar feed, the
home page, the multi-quote's quotes) and
every same-site link they show, one level deep;
each answer's status, the headers a browser or a cache reads (ETag, Last-Modified,
Content-Length, Vary, Location, Cache-Control) and its body; and the emails sent to them.
Only what differs by request is blanked: Django's per-request CSRF mask. The deal's salt,
drawn fresh for each game (games/fair_deal/fairness.py), is the same in both twins, as the
moment is.
"""

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from unittest import mock

import time_machine
from django.apps import apps
from django.core import mail
from django.core.cache import caches
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import Client, TestCase
from django.urls import reverse

from accounts.models import User
from games import queue, tasks
from games.community import tasks as community_tasks
from games.reading import tasks as reading_tasks
from games.reading.services import digest

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
HEADERS = ("ETag", "Last-Modified", "Content-Length", "Vary", "Location", "Cache-Control",
           "Expires", "Content-Type")  # fmt: skip
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+(")')
HREF = re.compile(r'href="(/[^"#]*)')
# Links a reader's crawl leaves alone: leaving the site's game pages, or a GET that is an
# act (signing out, unsubscribing) rather than a read.
SKIP = re.compile(r"^/(static|accounts|admin|email|rules)/|logout|/record\.json$")
CRAWL_LIMIT = 40
SALT = "games.fair_deal.services.new_salt"


def reset_sequences():
    """Set every table's id sequence back to its largest id (PostgreSQL's sequences ignore a
    rollback; SQLite's are rows, rolled back with the rest)."""
    sql = connection.ops.sequence_reset_sql(no_style(), apps.get_models())
    with connection.cursor() as cursor:
        for statement in sql:
            cursor.execute(statement)


def clear_caches():
    for cache in caches.all():
        cache.clear()


def normal(body: bytes) -> str:
    return CSRF.sub(r"\1-\2", body.decode(errors="replace"))


@dataclass
class Reader:
    """One viewer (a user, or None for an anonymous visitor) reading a game."""

    name: str
    user: object
    tags: dict  # url -> the ETag a poller kept from the first twin
    seen: dict = field(default_factory=dict)  # what they were served, by url

    def read(self, game, extra=()):
        client = Client()
        if self.user is not None:
            client.force_login(self.user)
        pk = game.pk
        live = reverse("game_live", args=[pk])
        start = [
            reverse("game_detail", args=[pk]),
            reverse("game_detail", args=[pk]) + "?page=1",
            live,
            live + "?after=0&mode=append",
            live + "?after=1&mode=append",  # the vote markers of the run after post 1 too
            reverse("game_list"),
            reverse("game_since", args=[pk]),
            reverse("game_since", args=[pk]) + "?visit=previous",
            reverse("game_role", args=[pk]),
            reverse("notifications"),
            reverse("archive"),
            reverse("replacement_list"),
            "/health/",  # issue 27: the health endpoint says nothing of any game
            reverse("calendar_game_feed", args=[pk]),  # issue 30: the game's public calendar
            # Issue 31: the home page's "awaited" notice, and the multi-quote's quotes.
            reverse("home"),
            reverse("game_quotes", args=[pk]) + "?n=1&n=2&n=3&n=4",
            *extra,
        ]
        queue, done = list(start), set()
        while queue and len(done) < CRAWL_LIMIT:
            url = queue.pop(0)
            if url in done:
                continue
            done.add(url)
            body = self._get(client, url)
            for link in HREF.findall(body):
                if link not in done and not SKIP.search(link):
                    queue.append(link)
        # A poller that kept the live tag from before the hidden input (the first twin's).
        kept = self.tags.setdefault(live, self.seen[live][1].get("ETag"))
        response = client.get(live, HTTP_IF_NONE_MATCH=kept)
        self.seen[f"{live} If-None-Match"] = self._answer(response)

    def _get(self, client, url) -> str:
        response = client.get(url)
        self.seen[url] = self._answer(response)
        return self.seen[url][2]

    @staticmethod
    def _answer(response):
        headers = {h: response.headers[h] for h in HEADERS if h in response.headers}
        return (response.status_code, headers, normal(response.content))


def emails_to(user) -> list:
    """The emails sent to `user` so far: every part a mail client shows or reads."""
    found = []
    for message in mail.outbox:
        if user.email not in message.to:
            continue
        headers = {k: v for k, v in message.extra_headers.items()}
        parts = [message.body] + [content for content, _ in message.alternatives]
        found.append((message.subject, message.from_email, headers, parts))
    return found


@contextmanager
def tasks_in_process():
    """What the services ask for after a commit (games/queue.py: every game email, the vote
    alerts, the outbox's sends) done at once in this process, as the workers would."""
    names = ("emails_send", "game_phase_emails", "game_role_emails")
    for name in names:
        queue.connect_job(name, getattr(tasks, name).run)
    queue.connect_job("notice_emails", community_tasks.notice_emails.run)  # the community's
    for name in ("post_notification_emails", "vote_alerts"):  # reading's
        queue.connect_job(name, getattr(reading_tasks, name).run)
    try:
        yield
    finally:
        tasks.connect_receivers()
        community_tasks.connect_jobs()
        reading_tasks.connect_jobs()


def _steps(story):
    """The story's checkpoints, each reached with its commit callbacks run (the emails)."""
    steps = iter(story)
    while True:
        with TestCase.captureOnCommitCallbacks(execute=True):
            step = next(steps, None)
        if step is None:
            return
        yield step


def digest_of(user):
    """`user`'s daily digest as it would go out the next morning (what happened in their
    games since the last one), into mail.outbox."""
    User.objects.filter(pk=user.pk).update(email_digest=True)
    user.refresh_from_db()
    morning, _ = digest.digest_morning(T0 + timedelta(days=1), user.zoneinfo)
    with TestCase.captureOnCommitCallbacks(execute=True):
        digest.digest_send(user=user, now=morning)
    User.objects.filter(pk=user.pk).update(digest_sent_at=None)


def twins(story, viewers, *, extra=()):
    """Play `story(hidden)` twice, without the hidden input and with it. The story is a
    generator: each time it yields (checkpoint, game, users) every viewer reads the game,
    and the emails sent to them so far, their digest among them, are read.
    Returns [what the viewers were served in the first twin, … in the second]:
    {(checkpoint, viewer): {url: (status, headers, body)}, (checkpoint, viewer, "mail"): …}."""
    tags = {}
    served = []
    for hidden in (False, True):
        # Before the first twin too: an earlier test's rows left PostgreSQL's sequences on.
        reset_sequences()
        clear_caches()
        mail.outbox.clear()
        seen = {}
        with transaction.atomic(), mock.patch(SALT, lambda: "5a" * 32), tasks_in_process():
            with time_machine.travel(T0, tick=False):
                for checkpoint, game, users in _steps(story(hidden)):
                    for viewer in viewers:
                        user = users.get(viewer)
                        if user is not None:  # before the pages mark what is new read
                            digest_of(user)
                            seen[(checkpoint, viewer, "mail")] = emails_to(user)
                        reader = Reader(viewer, user, tags.setdefault((checkpoint, viewer), {}))
                        reader.read(game, extra)
                        seen[(checkpoint, viewer)] = reader.seen
            transaction.set_rollback(True)
        reset_sequences()
        served.append(seen)
    clear_caches()
    return served


def differences(first: dict, second: dict) -> list[str]:
    """Where two twins' servings differ, in words (empty when identical)."""
    found = []
    for key in sorted(set(first) | set(second), key=repr):
        a, b = first.get(key), second.get(key)
        if a == b:
            continue
        if not isinstance(a, dict) or not isinstance(b, dict):
            found.append(f"{key}: {_short(a)} != {_short(b)}")
            continue
        for url in sorted(set(a) | set(b)):
            if a.get(url) != b.get(url):
                found.append(f"{key} {url}: {_diff(a.get(url), b.get(url))}")
    return found


def _diff(a, b) -> str:
    if a is None or b is None:
        return "reached in one twin only"
    if a[0] != b[0]:
        return f"status {a[0]} != {b[0]}"
    if a[1] != b[1]:
        return f"headers {a[1]} != {b[1]}"
    x, y = a[2], b[2]
    at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), len(x))
    around = slice(max(at - 60, 0), at + 60)
    return f"body differs at {at}: {x[around]!r} != {y[around]!r}"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "…"
