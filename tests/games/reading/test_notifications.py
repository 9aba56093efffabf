"""The wagon alert (issue 15): who is told when a wagon is one vote from a lynch (W-4) and
when a vote lands on them, once per target and day; and that a mention's notification or
its email carries nothing its reader may not see. (The inbox itself, the list and the
header's count, is the core's: tests/games/test_notifications.py.)"""

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Notification
from games.selectors.notifications import REF_FIELDS, notification_ref
from tests.games.conftest import forget_start_notices, make_game
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db
SECRET = "Coven-secret-8812"


@pytest.fixture
def eager_tasks():
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


@pytest.fixture
def game(moderator, cast_users):
    game = make_game(moderator, cast_users)
    forget_start_notices()
    return game


def _opt_in(*users, email_mentions=False):
    for user in users:
        user.wagon_alerts = True
        user.email_mentions = email_mentions
        user.save(update_fields=["wagon_alerts", "email_mentions"])


def _vote(capture, game, user, target):
    with capture(execute=True):
        services.vote_cast(game=game, user=user, target=target)


def _alerts(user, kind):
    return list(Notification.objects.filter(user=user, kind=kind).values_list("text", flat=True))


# --- the wagon alert ------------------------------------------------------------------------
def test_a_wagon_one_vote_from_a_lynch_alerts_those_who_asked_once_per_day(
    game, cast_users, moderator, eager_tasks, django_capture_on_commit_callbacks
):
    u = cast_users
    _opt_in(u["gus"], u["bob"], moderator)
    capture = django_capture_on_commit_callbacks
    for voter in ("ann", "cat", "dan"):  # 3 of the 5 a lynch of 8 needs (W-4)
        _vote(capture, game, u[voter], "bob")
    assert not Notification.objects.filter(kind="wagon").exists()
    mail.outbox.clear()
    _vote(capture, game, u["eve"], "bob")  # L-1
    assert _alerts(u["gus"], "wagon") == ["Bob is one vote from being lynched (Day 1)."]
    assert _alerts(moderator, "wagon") == ["Bob is one vote from being lynched (Day 1)."]
    assert _alerts(u["bob"], "wagon") == ["You are one vote from being lynched (Day 1)."]
    assert not Notification.objects.filter(user__in=[u["ann"], u["cat"], u["hal"]]).exists()
    # Emails too (wagon_alerts is in-site and by email), one address each.
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [u["gus"].email, u["bob"].email, moderator.email, u["bob"].email]
    )  # Bob twice: the wagon, and Eve's vote landing on him
    # Away from L-1 and back again the same day: no second alert.
    with django_capture_on_commit_callbacks(execute=True):
        services.vote_withdraw(game=game, user=u["eve"])
    _vote(capture, game, u["eve"], "bob")
    assert len(_alerts(u["gus"], "wagon")) == 1


def test_a_vote_landing_on_a_member_who_asked_tells_them(
    game, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    u = cast_users
    _opt_in(u["cat"])
    _vote(django_capture_on_commit_callbacks, game, u["ann"], "cat")
    _vote(django_capture_on_commit_callbacks, game, u["bob"], "dan")  # Dan did not ask
    assert _alerts(u["cat"], "voted") == ["Ann voted for you (Day 1)."]
    assert not Notification.objects.filter(user=u["dan"]).exists()
    assert not Notification.objects.filter(user=u["ann"]).exists()


def test_a_day_vote_queues_its_alerts_but_writes_none_in_its_own_transaction(
    game, cast_users, django_capture_on_commit_callbacks
):
    _opt_in(cast_users["cat"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.vote_cast(game=game, user=cast_users["ann"], target="cat")
    assert not Notification.objects.exists()  # the vote_alerts task writes them
    assert callbacks  # … queued after commit


def test_a_vote_queues_no_alert_task_where_nobody_asked(
    game, cast_users, django_capture_on_commit_callbacks
):
    """Most games: nobody asked, and the workers get nothing to do for a vote."""
    from games.reading.services.notifications import alerts_asked_forget

    with celery_app.connection_for_write() as conn:
        email = conn.SimpleQueue("email")
        email.clear()
        with django_capture_on_commit_callbacks(execute=True):
            services.vote_cast(game=game, user=cast_users["ann"], target="cat")
        assert email.qsize() == 0
        _opt_in(cast_users["cat"])
        alerts_asked_forget(game)  # what a setting's change waits a minute for
        with django_capture_on_commit_callbacks(execute=True):
            services.vote_cast(game=game, user=cast_users["bob"], target="cat")
        message = email.get(timeout=1)
        assert message.headers["task"] == "games.tasks.vote_alerts"
        email.clear()
        email.close()


def test_alerts_where_nobody_asked_cost_one_query_and_never_lock_the_game(game, cast_users):
    """The vote_alerts task runs after every day vote: where no player nor the moderator
    asked for alerts it must not queue behind the votes on the game row's lock."""
    from games.reading.services.notifications import vote_alerts_send

    votes = [(99, "ann", "bob")]
    with CaptureQueriesContext(connection) as queries:
        sent = vote_alerts_send(
            game_id=game.pk, phase=game.phase, votes=votes, wagons=["bob"], living=["bob"]
        )
    assert sent == 0 and len(queries) == 1
    assert "FOR UPDATE" not in queries[0]["sql"]
    _opt_in(cast_users["hal"])  # anyone in the game who asked: served under the lock
    with CaptureQueriesContext(connection) as queries:
        vote_alerts_send(
            game_id=game.pk, phase=game.phase, votes=votes, wagons=["bob"], living=["hal"]
        )
    assert any("FOR UPDATE" in q["sql"] for q in queries) or connection.vendor == "sqlite"
    assert _alerts(cast_users["hal"], "wagon")


def _ref(note):
    return notification_ref(Notification.objects.values_list(*REF_FIELDS).get(pk=note.pk))


# --- nothing a reader may not see -------------------------------------------------------------
def test_a_room_mention_leaks_nothing_to_an_outsider(
    client, game, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    """Bob writes in the Coven's room, naming Ann and Hal: Ann (outside) gets no notification,
    no email, and her list names neither the room nor its words."""
    ann, hal = cast_users["ann"], cast_users["hal"]
    for user in (ann, hal):
        user.email_mentions = True
        user.save(update_fields=["email_mentions"])
    with django_capture_on_commit_callbacks(execute=True):
        services.room_post(
            game=game, user=cast_users["bob"], room="coven", body=f"{SECRET}: kill @ann, @hal"
        )
    assert not Notification.objects.exists()  # Hal is a Junior, not in the Coven yet
    assert mail.outbox == []
    client.force_login(ann)
    page = client.get(reverse("notifications")).content.decode()
    assert SECRET not in page and "Coven" not in page


def test_notifications_and_their_emails_carry_no_post_words_and_only_a_readers_link(
    client, game, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    """A Lover's mention of the other Lover: the text names the room (both are in it), the
    link is the room's, and neither the list nor the email repeats the post."""
    gus = cast_users["gus"]
    gus.email_mentions = True
    gus.save(update_fields=["email_mentions"])
    with django_capture_on_commit_callbacks(execute=True):
        post = services.room_post(
            game=game, user=cast_users["fay"], room="lovers-1", body=f"{SECRET} @gus"
        )
    note = Notification.objects.get()
    assert note.user == gus and SECRET not in note.text
    (message,) = mail.outbox
    assert SECRET not in message.body and SECRET not in message.alternatives[0][0]
    client.force_login(gus)
    page = client.get(reverse("notifications")).content.decode()
    assert SECRET not in page
    location = client.post(reverse("notification_go", args=[_ref(note)]))["Location"]
    assert location.endswith(f"#p{post.number}") and "/rooms/" in location
    assert "lovers" not in location  # the room's opaque id, never its key
    assert client.get(location).status_code == 200
