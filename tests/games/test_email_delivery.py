"""Game emails are never lost (issue 25): each recipient's email is sent on its own,
recorded as sent only once a real SMTP server accepted it, tried again with growing gaps
while the server is down, and an address the server refuses skips only itself (shown on
the member's profile page and the moderator's desk, tried again when the member asks).

The mail server is a real one on loopback (tests/games/smtp_server.py). The first tests
run the tasks' bodies in the test's process; the last two run the production shape: a
real Celery worker over Redis (skipped without REDIS_URL, as in test_celery_worker.py).
"""

import os
import time
import uuid
from collections import Counter

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.apps import apps
from django.conf import settings as django_settings
from django.db import connections
from django.urls import reverse

from accounts.models import User
from games import queue, services
from games.models import EmailSent, Game
from tests.games.conftest import make_game
from tests.games.smtp_server import SmtpServer, wait_for
from witchhunt.celery import app as celery_app

REDIS_URL = os.environ.get("REDIS_URL")
needs_redis = pytest.mark.skipif(
    not REDIS_URL,
    reason="needs a Redis broker: set REDIS_URL (CI does), e.g. redis://127.0.0.1:6379/0",
)
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
CAT = "cat@example.com"
MOD = "mod@example.com"  # the moderator: told by a notice that the game started
# A real mail server on loopback in every test, real workers in the last two.
pytestmark = pytest.mark.slow


def _address(name):
    return f"{name}@example.com"


def _outbox():
    """The outbox's model, looked up by name (so that this module imports on a release
    without it, and its tests fail on what arrives rather than on an import)."""
    return apps.get_model("games", "GameEmail")


def _sweep_task_name():
    entry = django_settings.CELERY_BEAT_SCHEDULE.get("email-sweep")
    return entry["task"] if entry else None


def _sweep_now():
    """What the beat's email sweep does, with every pending email due now (as if the
    gap had passed)."""
    name = _sweep_task_name()
    if name is None:
        return 0
    from django.utils import timezone

    _outbox().objects.filter(status="pending").update(next_try_at=timezone.now())
    return celery_app.tasks[name].run()


def _once_each(server):
    """Every message the server accepted, (recipient, subject): none twice."""
    counts = Counter(server.messages)
    assert all(n == 1 for n in counts.values()), [k for k, n in counts.items() if n > 1]
    return set(counts)


@pytest.fixture
def eager_tasks():
    """Tasks queued on commit run at once, in this process (the worker's code path)."""
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


@pytest.fixture
def smtp(settings):
    """A mail server on loopback that takes every message; Django's SMTP backend at it."""
    server = SmtpServer().start()
    server.settings(settings)
    settings.GAME_EMAIL_RETRY_SECONDS = 1
    settings.GAME_EMAIL_RETRY_MAX_SECONDS = 2
    yield server
    server.stop()


@pytest.fixture
def smtp_refusing_cat(smtp):
    smtp.handler.refuse.add(CAT)
    return smtp


# --- in the test's process -----------------------------------------------------------------
@pytest.mark.django_db
def test_emails_written_while_the_server_is_down_arrive_once_it_is_back(
    client, smtp, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
    started = {_address(p) for p in PLAYERS} | {MOD}  # the roles, the moderator's notice
    assert {r for r, _s in _once_each(smtp)} == started

    User.objects.filter(pk=cast_users["bob"].pk).update(email_mentions=True)
    smtp.stop()
    with django_capture_on_commit_callbacks(execute=True):  # mid-game, the server down
        services.post_create(game=game, user=cast_users["ann"], body="@Bob what do you say?")
        services.phase_advance(game=game, by=moderator, expected_phase="day 1")
    assert len(smtp.messages) == 9  # nothing more could go out
    assert EmailSent.objects.filter(kind="phase", phase="night 1").count() == 8
    client.force_login(moderator)
    desk = client.get(reverse("game_desk", args=[game.pk])).content.decode()
    assert "9 emails to this game’s players wait for the mail server" in desk

    smtp.start()
    assert wait_for(lambda: len(smtp.messages) == 18, timeout=10, then=_sweep_now)
    _sweep_now()  # another sweep sends nothing again
    received = _once_each(smtp)
    assert len(received) == 18
    phase_subjects = {s for r, s in received if "Night 1" in s}
    assert len({r for r, s in received if s in phase_subjects}) == 8
    assert [s for r, s in received if r == _address("bob") and "mention" in s.lower()]
    GameEmail = _outbox()
    assert set(GameEmail.objects.values_list("status", flat=True)) == {"sent"}
    assert list(GameEmail.objects.values_list("message", flat=True).distinct()) == [{}]


@pytest.mark.django_db
def test_a_failed_email_is_tried_again_with_growing_gaps(
    smtp, settings, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    from django.utils import timezone

    from games.services import outbox

    settings.GAME_EMAIL_RETRY_SECONDS = 30
    settings.GAME_EMAIL_RETRY_MAX_SECONDS = 30 * 60
    smtp.stop()
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)  # the role emails, the server down
    GameEmail = outbox.GameEmail
    first = GameEmail.objects.order_by("pk").first()
    gaps = []
    for _ in range(8):
        before = timezone.now()
        GameEmail.objects.filter(pk=first.pk).update(next_try_at=before)
        outbox.emails_sweep()
        first.refresh_from_db()
        gaps.append(round((first.next_try_at - before).total_seconds() / 30) * 30)
    assert gaps == [60, 120, 240, 480, 960, 1800, 1800, 1800]  # after 30 s at the start
    assert first.status == "pending" and first.tries == 9
    assert "ConnectionRefusedError" in first.last_error
    # The rest of the batch waits as long as the first, not a sweep each.
    assert not GameEmail.objects.filter(status="pending", next_try_at__lte=timezone.now())


@pytest.mark.django_db
def test_a_retry_never_sends_again_what_the_server_accepted(
    smtp, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    from games.services import outbox

    smtp.handler.busy_after = 3  # a 451 after three messages
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)
    assert len(smtp.messages) == 3
    GameEmail = outbox.GameEmail
    assert GameEmail.objects.filter(status="sent").count() == 3
    assert all("451" in e for e in GameEmail.objects.filter(status="pending").values_list(
        "last_error", flat=True
    ))
    smtp.handler.busy_after = None
    ids = list(GameEmail.objects.values_list("pk", flat=True))
    outbox.emails_send(ids=ids)  # a duplicate of the first task: nothing is due yet
    assert len(smtp.messages) == 3
    _sweep_now()
    outbox.emails_send(ids=ids)  # and again, once all went
    assert {r for r, _s in _once_each(smtp)} == {_address(p) for p in PLAYERS} | {MOD}


@pytest.mark.django_db
def test_a_connection_the_server_closes_is_opened_again(
    smtp, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    smtp.handler.hang_up = True
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)
    assert {r for r, _s in _once_each(smtp)} == {_address(p) for p in PLAYERS} | {MOD}


@pytest.mark.django_db
def test_an_email_that_cannot_be_sent_holds_up_no_other(
    smtp, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    from games.services import outbox

    queue.connect_job("emails_send", lambda ids: None)  # the tasks are lost: the sweep sends
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)
    assert smtp.messages == []
    first = outbox.GameEmail.objects.order_by("pk").first()
    outbox.GameEmail.objects.filter(pk=first.pk).update(message={"subject": "no body"})
    outbox.emails_sweep()
    assert len(smtp.messages) == 8  # every other one
    first.refresh_from_db()
    assert first.status == "failed" and "KeyError" in first.last_error


@pytest.mark.django_db
def test_a_refused_address_skips_only_itself_and_is_shown_to_the_member_and_the_desk(
    client, smtp_refusing_cat, moderator, cast_users, eager_tasks,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    smtp = smtp_refusing_cat
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
        services.phase_advance(game=game, by=moderator, expected_phase="day 1")
    others = [p for p in PLAYERS if p != "cat"]
    received = _once_each(smtp)
    for name in others:  # the role and the night, to everyone after Cat too
        assert len([s for r, s in received if r == _address(name)]) == 2, name
    assert smtp.to(CAT) == []
    assert smtp.handler.rcpt_tries.count(CAT) == 1  # not tried again once refused

    cat = User.objects.get(pk=cast_users["cat"].pk)
    assert cat.email_refused and cat.email_refused_reply.startswith("550 5.1.1")
    GameEmail = _outbox()
    assert GameEmail.objects.filter(user=cat, status="refused").count() == 2
    assert not GameEmail.objects.filter(status="pending").exists()

    # The moderator's desk names her (no address); no player's page does.
    client.force_login(moderator)
    desk = client.get(reverse("game_desk", args=[game.pk])).content.decode()
    assert "Emails not reaching players" in desk and "Cat" in desk.split("not reaching")[1]
    assert CAT not in desk
    client.force_login(cast_users["ann"])
    for page in ("game_detail", "game_role"):
        text = client.get(reverse(page, args=[game.pk])).content.decode()
        assert "not reaching" not in text and "refused" not in text.lower()
    profile = client.get(reverse("profile")).content.decode()
    assert "refused" not in profile.lower()

    # Her profile says so in plain words, and "try again" sends what was held.
    client.force_login(cat)
    profile = client.get(reverse("profile")).content.decode()
    assert "refused" in profile and CAT in profile and "550 5.1.1" in profile
    smtp.handler.refuse.clear()  # she fixed her mailbox
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("email_try_again"))
    assert response.status_code == 302
    assert not User.objects.get(pk=cat.pk).email_refused
    assert len(smtp.to(CAT)) == 2  # her role and the night, once each
    _once_each(smtp)


@pytest.mark.django_db
def test_a_new_address_is_tried_even_while_the_old_one_is_held(
    smtp_refusing_cat, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
    assert User.objects.get(pk=cast_users["cat"].pk).email_refused
    User.objects.filter(pk=cast_users["cat"].pk).update(email="cat@new.example.com")
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_advance(game=game, by=moderator, expected_phase="day 1")
    assert len(smtp_refusing_cat.to("cat@new.example.com")) == 1
    assert not User.objects.get(pk=cast_users["cat"].pk).email_refused


@pytest.mark.django_db
def test_a_digest_claimed_while_the_server_is_down_is_not_lost(
    smtp, cast_game, cast_users, django_capture_on_commit_callbacks
):
    from datetime import UTC, datetime

    from games.reading.services.digest import DIGEST_HOUR, digests_send

    morning = datetime(2026, 3, 3, DIGEST_HOUR, 30, tzinfo=UTC)
    User.objects.filter(pk=cast_users["ann"].pk).update(email_digest=True)
    smtp.stop()
    with django_capture_on_commit_callbacks(execute=True):
        digests_send(now=morning)
    assert User.objects.get(pk=cast_users["ann"].pk).digest_sent_at == morning  # claimed
    assert smtp.messages == []
    smtp.start()
    assert wait_for(lambda: smtp.to(_address("ann")), timeout=10, then=_sweep_now)
    assert len(smtp.to(_address("ann"))) == 1 and "digest" in smtp.to(_address("ann"))[0].lower()


@pytest.mark.django_db
def test_a_reminder_still_waiting_at_its_deadline_is_not_sent_late(
    smtp, game, traveller, cast_users, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from games.services import outbox, sweep
    from tests.games.conftest import T0

    smtp.stop()
    traveller.move_to(T0 + timedelta(hours=48))  # Day 1's reminder, 24 hours before its end
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.reminder_sweep() == {sweep.REMINDED: 1}
    assert outbox.GameEmail.objects.filter(template="reminder", status="pending").count() == 8
    smtp.start()
    traveller.move_to(T0 + timedelta(hours=72, seconds=1))  # the server is back too late
    outbox.emails_sweep()
    assert smtp.messages == []  # no "Day 1 ends in 24 hours" after it ended
    assert set(outbox.GameEmail.objects.values_list("status", flat=True)) == {"expired"}


# --- the production shape: a real Celery worker over Redis ----------------------------------
@pytest.fixture
def email_worker(settings):
    """A Celery app configured like witchhunt/celery.py on the Redis broker, its queues
    renamed for this test (test_celery_worker.py), with a worker thread taking the email
    queue; what the services queue after a commit goes to it."""
    app = Celery("witchhunt-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    suffix = uuid.uuid4().hex
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    queues = {name: f"{name}-test-{suffix}" for name in routed}
    routes = {t: {"queue": queues[r["queue"]]} for t, r in settings.CELERY_TASK_ROUTES.items()}
    app.conf.update(
        broker_url=REDIS_URL,
        broker_transport_options={},
        task_routes=routes,
        task_default_queue=f"default-test-{suffix}",
        task_always_eager=False,
    )
    app.finalize()
    # Put back exactly what was connected: the worker's app may be current by then, and
    # connecting afresh would bind the lab's and the clock's tasks to it.
    before = dict(queue._jobs)
    for name in ("game_role_emails", "game_phase_emails", "post_notification_emails",
                 "notice_emails", "vote_alerts", "emails_send"):  # fmt: skip
        if f"games.tasks.{name}" in app.tasks:
            queue.connect_job(name, app.tasks[f"games.tasks.{name}"].delay)
    worker = start_worker(
        app, pool="solo", perform_ping_check=False, loglevel="WARNING",
        queues=[queues["email"]],
    )  # fmt: skip
    with worker:
        app.sweep = lambda: app.send_task(_sweep_task_name()) if _sweep_task_name() else None
        yield app
    queue._jobs.clear()
    queue._jobs.update(before)
    connections.close_all()
    with app.connection_for_write() as conn:
        for name in queues.values():
            conn.default_channel.queue_delete(name)


def _every_second(app):
    """The beat's email sweep, sent as beat sends it, at most once a second."""
    last = [0.0]

    def send():
        if time.monotonic() - last[0] >= 1:
            last[0] = time.monotonic()
            app.sweep()

    return send


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_worker_game_emails_survive_a_mail_server_outage_mid_game(
    smtp, email_worker, moderator, cast_users
):
    game = make_game(moderator, cast_users)
    assert wait_for(lambda: len(smtp.messages) == 9), smtp.messages  # roles, the notice
    User.objects.filter(pk=cast_users["bob"].pk).update(email_mentions=True)

    smtp.stop()
    services.post_create(game=game, user=cast_users["ann"], body="@Bob what do you say?")
    services.phase_advance(game=game, by=moderator, expected_phase="day 1")
    # The worker has tried them: the night's emails are written, none could go.
    assert wait_for(lambda: EmailSent.objects.filter(phase="night 1").count() == 8)
    time.sleep(1.5)
    assert len(smtp.messages) == 9

    smtp.start()
    assert wait_for(lambda: len(smtp.messages) == 18, then=_every_second(email_worker)), (
        smtp.messages
    )
    time.sleep(2.5)  # more sweeps: nothing goes twice
    received = _once_each(smtp)
    night = [r for r, s in received if "Night 1" in s]
    assert sorted(night) == sorted(_address(p) for p in PLAYERS)
    assert [s for r, s in received if r == _address("bob") and "mention" in s.lower()]
    assert Game.objects.get(pk=game.pk).phase == "night 1"


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_worker_a_refused_address_skips_only_itself(
    smtp_refusing_cat, email_worker, moderator, cast_users
):
    smtp = smtp_refusing_cat
    game = make_game(moderator, cast_users)
    assert wait_for(lambda: len(smtp.messages) == 8), smtp.messages  # 7 roles, the notice
    services.phase_advance(game=game, by=moderator, expected_phase="day 1")
    assert wait_for(lambda: len(smtp.messages) == 15, then=_every_second(email_worker)), (
        smtp.messages
    )
    time.sleep(2.5)
    received = _once_each(smtp)
    assert {r for r, _s in received} == {_address(p) for p in PLAYERS if p != "cat"} | {MOD}
    assert smtp.to(CAT) == [] and smtp.handler.rcpt_tries.count(CAT) == 1
    cat = User.objects.get(pk=cast_users["cat"].pk)
    assert cat.email_refused
