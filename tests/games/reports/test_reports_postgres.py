"""One report per post and reporter under real concurrency: two requests at once (a double
click) make one report, and the other is refused in words. PostgreSQL's row locks (SQLite
has none, so this is skipped there; CI runs the suite on PostgreSQL)."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

from games import services
from games.engine import GameRuleError
from games.models import Game, Ignore, PostReport
from games.reports import services as reports
from tests.games.conftest import CAST, make_game, users_for

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
    ),
    pytest.mark.django_db(transaction=True),
]


def _twice_at_once(target, game=None):
    """`target()` in two threads released together: what each returned or raised. With
    `game`, its row is held locked by a third connection while they start, and no report
    may be written until it is let go (each waits for the game's lock)."""
    barrier = threading.Barrier(2)
    outcomes = [None, None]
    held, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                # NO KEY UPDATE: it lets the report row's key check through (KEY SHARE)
                # and stops the service's FOR UPDATE alone.
                Game.objects.select_for_update(no_key=True).get(pk=game.pk)
                held.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    holder = None
    if game is not None:
        holder = threading.Thread(target=hold)
        holder.start()
        assert held.wait(timeout=10)

    def run(i):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = target()
        except Exception as e:  # the refusal, or a bug: the test reads which
            outcomes[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    if holder is not None:
        time.sleep(1.0)
        assert PostReport.objects.count() == 0, "a report was written without the game's lock"
        release.set()
        holder.join(timeout=30)
    for t in threads:
        t.join(timeout=60)
    return outcomes


def test_two_reports_of_one_post_at_once_make_one_and_a_refusal_in_words(moderator):
    users = users_for(CAST)
    game = make_game(moderator, users)
    post = services.post_create(game=game, user=users["bob"], body="Hello")

    def report():
        return reports.report_make(
            game=game, thread="public", number=post.number, user=users["ann"], reason="spam"
        )

    outcomes = _twice_at_once(report, game)
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], GameRuleError), outcomes
    assert "already reported" in str(refused[0])
    assert PostReport.objects.count() == 1

    def ignore():
        return reports.ignore_from_post(post=post, user=users["cat"])

    outcomes = _twice_at_once(ignore)
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], GameRuleError), outcomes
    assert Ignore.objects.count() == 1
