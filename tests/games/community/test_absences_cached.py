"""The game page's player list reads its players' absences from the cache (issue 29): no
query while the site's absences stay as they are; any absence created, changed or deleted
shows on the next view, and one that ends stops showing with no write at all."""

import os
import secrets
import socket
import threading
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.community.selectors.absences import absences_shown, absences_shown_cached
from games.community.services import absences
from games.models import Absence
from tests.factories import UserFactory
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db

TABLE = Absence._meta.db_table


def _until(day) -> str:
    return f"away until {day:%a} {day.day} {day:%b}"


def _view(client, game):
    """The game page as the reader sees it, and how many of its queries read absences."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{reverse('game_detail', args=[game.pk])}?page=1")
    assert response.status_code == 200
    return response.content.decode(), sum(TABLE in q["sql"] for q in queries.captured_queries)


@pytest.fixture
def game(moderator, cast_users):
    return make_game(moderator, cast_users)


def test_a_warm_player_list_reads_no_absence(client, game, cast_users):
    today = timezone.localdate()
    absences.absence_declare(
        user=cast_users["ann"], first_day=today, last_day=today + timedelta(days=2)
    )
    for viewer in (None, cast_users["bob"]):
        client.logout()
        if viewer:
            client.force_login(viewer)
        html, cold = _view(client, game)
        assert _until(today + timedelta(days=2)) in html
        html, warm = _view(client, game)
        assert _until(today + timedelta(days=2)) in html
        assert warm == 0
    assert cold == 0  # the second reader found it warm too: one entry for every reader


def test_every_change_of_an_absence_shows_on_the_next_view(
    client, game, cast_users, django_capture_on_commit_callbacks
):
    """Whatever path writes the row (the member's page, a save, a queryset's delete), the
    version moves once it commits."""
    ann = cast_users["ann"]
    today = timezone.localdate()
    client.force_login(cast_users["bob"])
    html, _ = _view(client, game)
    assert "away until" not in html

    with django_capture_on_commit_callbacks(execute=True):  # ann declares on her page
        ann_client = client.__class__()
        ann_client.force_login(ann)
        response = ann_client.post(
            reverse("absences"), {"first_day": today, "last_day": today + timedelta(days=1)}
        )
    assert response.status_code == 302
    html, _ = _view(client, game)
    assert _until(today + timedelta(days=1)) in html
    assert _view(client, game)[1] == 0

    absence = Absence.objects.get(user=ann)
    with django_capture_on_commit_callbacks(execute=True):  # changed: two days more
        absence.ends_at += timedelta(days=2)
        absence.save()
    html, _ = _view(client, game)
    assert _until(today + timedelta(days=3)) in html

    with django_capture_on_commit_callbacks(execute=True):  # ann deletes it on her page
        ann_client.post(reverse("absence_delete", args=[absence.pk]))
    html, _ = _view(client, game)
    assert "away until" not in html

    gus = cast_users["gus"]
    absences.absence_declare(user=gus, first_day=today, last_day=today)
    with django_capture_on_commit_callbacks(execute=True):
        absences.absence_declare(user=ann, first_day=today, last_day=today)
    html, _ = _view(client, game)
    assert html.count(_until(today)) == 2
    with django_capture_on_commit_callbacks(execute=True):  # as a member's erasure deletes
        Absence.objects.filter(user=ann).delete()
    assert Absence.objects.filter(user=gus).exists()
    html, _ = _view(client, game)
    assert html.count(_until(today)) == 1


def test_an_absence_whose_end_passes_stops_showing_without_a_write(client, game, cast_users):
    """Read warm minutes before Ann's absence ends and minutes after: gone, from the
    same entry (within its lifetime, ENTRY_SECONDS)."""
    today = timezone.localdate()
    ann = absences.absence_declare(user=cast_users["ann"], first_day=today, last_day=today)
    absences.absence_declare(
        user=cast_users["cat"],
        first_day=today + timedelta(days=1),
        last_day=today + timedelta(days=3),
    )
    client.force_login(cast_users["bob"])
    with time_machine.travel(ann.ends_at - timedelta(minutes=5), tick=False):
        html, _ = _view(client, game)
        assert _until(today) in html and _until(today + timedelta(days=3)) not in html
    with time_machine.travel(ann.ends_at + timedelta(minutes=5), tick=False):
        html, reads = _view(client, game)
    assert reads == 0, "read from the warm entry"
    assert _until(today) not in html
    assert _until(today + timedelta(days=3)) in html  # Cat's has begun meanwhile


def test_the_cached_answer_is_the_rows_answer(cast_users, django_capture_on_commit_callbacks):
    """At any moment after the entry was read, merged and begun as the rows say; a
    moment before it (another process's clock behind) reads the rows."""
    ann, bob, cat = cast_users["ann"], cast_users["bob"], cast_users["cat"]
    today = timezone.localdate()
    for user, first, last in (
        (ann, 0, 1),
        (ann, 2, 3),  # touches the first: one stretch
        (ann, 6, 6),
        (bob, 1, 1),
    ):
        absences.absence_declare(
            user=user,
            first_day=today + timedelta(days=first),
            last_day=today + timedelta(days=last),
            note=f"{user.player_name} {first}",
        )
    ids = [ann.pk, bob.pk, cat.pk, UserFactory().pk]
    now = timezone.now()
    absences_shown_cached(ids, now)  # the entry, read now
    for hours in (-30, 0, 20, 40, 100, 150, 200):
        at = now + timedelta(hours=hours)
        with CaptureQueriesContext(connection) as queries:
            cached = absences_shown_cached(ids, at)
        assert cached == absences_shown(ids, at), hours
        assert len(queries) == (1 if hours < 0 else 0), hours


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_with_the_caches_redis_down_the_player_list_reads_the_rows(client, game, cast_users):
    """witchhunt/cache.py: every read a miss, every write skipped; the page still shows it."""
    today = timezone.localdate()
    absences.absence_declare(user=cast_users["ann"], first_day=today, last_day=today)
    down = {
        "BACKEND": "witchhunt.cache.TolerantRedisCache",
        "LOCATION": f"redis://127.0.0.1:{_free_port()}/0",  # nothing listens there
        "KEY_PREFIX": "absences-down",
    }
    with override_settings(CACHES={**settings.CACHES, "default": down}):
        client.force_login(cast_users["bob"])
        for _ in range(2):
            html, reads = _view(client, game)
            assert _until(today) in html and reads == 1


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
def test_on_redis_a_warm_player_list_reads_no_absence(
    client, game, cast_users, django_capture_on_commit_callbacks
):
    today = timezone.localdate()
    absences.absence_declare(user=cast_users["ann"], first_day=today, last_day=today)
    on_redis = {
        "BACKEND": "witchhunt.cache.TolerantRedisCache",
        "LOCATION": os.environ["REDIS_URL"],
        "KEY_PREFIX": f"absences-test-{secrets.token_hex(4)}",  # no other run's entries
    }
    with override_settings(CACHES={**settings.CACHES, "default": on_redis}):
        client.force_login(cast_users["bob"])
        assert _view(client, game)[1] == 1
        html, reads = _view(client, game)
        assert _until(today) in html and reads == 0
        with django_capture_on_commit_callbacks(execute=True):
            Absence.objects.filter(user=cast_users["ann"]).delete()
        html, reads = _view(client, game)
        assert "away until" not in html and reads == 1


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a reader beside an open write needs PostgreSQL (SQLite locks the table): CI has it",
)
@pytest.mark.django_db(transaction=True)
def test_a_reader_during_the_write_leaves_nothing_stale(client, moderator, cast_users):
    """Another request reads the page while Ann's absence is written but not committed: it
    caches the rows as they were, under a version the commit leaves behind."""
    game = make_game(moderator, cast_users)
    today = timezone.localdate()
    seen = {}

    def read_elsewhere():  # another request, on its own connection
        try:
            other = Client()
            other.force_login(cast_users["bob"])
            seen["html"], _ = _view(other, game)
        finally:
            connection.close()

    with transaction.atomic():
        absences.absence_declare(user=cast_users["ann"], first_day=today, last_day=today)
        reader = threading.Thread(target=read_elsewhere)
        reader.start()
        reader.join()
    assert "away until" not in seen["html"]  # the write was not committed yet
    client.force_login(cast_users["cat"])
    html, _ = _view(client, game)
    assert _until(today) in html
