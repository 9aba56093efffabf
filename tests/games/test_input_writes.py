"""Issue 13: what one input costs the database, and where its side effects run.

A vote locks the game row once and writes only what changed; the public thread's system
posts are numbered by their INSERT (no MAX() before it); the broker hears of a phase
change only after the commit, with the game row free again."""

import pytest
from celery.signals import before_task_publish
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Post
from tests.games import said
from tests.games.conftest import row_lock_free

VOTE_MAX = 8  # statements of a vote, the transaction's own included (the target)
TRANSACTION = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def _sql(queries):
    return [q["sql"] for q in queries.captured_queries]


def _work(sql):
    """The statements that read or write rows (not BEGIN, SAVEPOINT and the like)."""
    return [s for s in sql if not s.upper().startswith(TRANSACTION)]


def _game_reads(sql):
    return sum('FROM "games_game"' in s for s in sql)


@pytest.mark.django_db
def test_a_vote_reads_the_game_row_once_and_writes_only_what_changed(cast_game, cast_users):
    with CaptureQueriesContext(connection) as queries:
        services.vote_cast(game=cast_game, user=cast_users["ann"], target="bob")
    sql = _sql(queries)
    assert len(sql) <= VOTE_MAX, sql
    # The game row (locked), the voter's seat, the input, its event, the game row again.
    work = _work(sql)
    assert len(work) == 5, work
    assert _game_reads(work) == 1
    (update,) = [s for s in work if s.startswith("UPDATE")]
    assert '"inputs_count"' in update and '"title"' not in update and '"deal"' not in update
    assert not any("MAX(" in s.upper() for s in sql)
    cast_game.refresh_from_db()
    assert cast_game.inputs_count == 1 and cast_game.title == "The named cast"


@pytest.mark.django_db
def test_the_vote_that_ends_the_day_numbers_its_posts_in_the_insert(
    cast_game, cast_users, moderator
):
    services.post_create(game=cast_game, user=cast_users["ann"], body="Hal, explain yourself.")
    for voter in ("ann", "cat", "dan", "eve"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="hal")
    before = Post.objects.filter(game=cast_game, thread="public").count()
    day_ends = Game.objects.get(pk=cast_game.pk).deadline_at
    with CaptureQueriesContext(connection) as queries:
        services.vote_cast(game=cast_game, user=cast_users["fay"], target="hal")
    cast_game.refresh_from_db()
    # The columns the new phase changed were saved (and only those were written).
    assert cast_game.phase == "night 1" and cast_game.inputs_count == 5
    assert cast_game.midnight_at is not None and cast_game.deadline_at != day_ends
    work = _work(_sql(queries))
    assert _game_reads(work) == 1
    assert not any("MAX(" in s.upper() for s in work), work
    # Two of them word the day's summary post: the seats' names, the day's public votes.
    assert len(work) <= 10, work

    posts = list(Post.objects.filter(game=cast_game, thread="public").order_by("number"))
    assert [p.number for p in posts] == list(range(1, len(posts) + 1))
    (announced,) = posts[before:]  # one summary post for the lynch, the death, the night
    assert announced.kind == Post.Kind.SYSTEM and announced.event.kind == "lynch"
    assert said.text(announced).splitlines()[-1] == "Night 1 begins."
    # The next post of any kind follows on.
    notice = services.announcement_post(game=cast_game, by=moderator, body="Night falls.")
    assert notice.number == len(posts) + 1


@pytest.mark.django_db(transaction=True)
def test_the_phase_emails_are_published_after_the_commit_with_the_row_free(cast_game, cast_users):
    postgres = connection.vendor == "postgresql"
    if postgres:  # the probe sees a lock when there is one
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=cast_game.pk)
            assert row_lock_free(cast_game.pk) is False
        assert row_lock_free(cast_game.pk) is True
    seen = []

    def published(sender=None, **kwargs):
        if sender == "games.tasks.game_phase_emails":
            seen.append(
                (connection.in_atomic_block, row_lock_free(cast_game.pk) if postgres else None)
            )

    before_task_publish.connect(published, weak=False)
    try:
        for voter in ("ann", "cat", "dan", "eve", "fay"):
            services.vote_cast(game=cast_game, user=cast_users[voter], target="hal")
    finally:
        before_task_publish.disconnect(published)
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1"
    assert seen == [(False, True if postgres else None)], seen
