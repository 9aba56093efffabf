"""Web push delivered to a stand-in push service (RFC 8030) that checks the VAPID header
(RFC 8292) and decrypts the message as the browser would (RFC 8291, aes128gcm): each
moment the core tells a member something of their own reaches each of their browsers as a
word of it, never the thing itself; a subscription the service says is gone is removed; a
failing service is tried again, then given up; the member's choice per channel decides."""

from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings

from games import services
from games.community.services import replacements
from games.models import PushChoice, PushSubscription
from games.push import services as push
from games.push import tasks as push_tasks
from games.services import sweep
from tests.factories import UserFactory
from tests.games.conftest import CAST, T0, make_game
from tests.games.noninterference import tasks_in_process

from .conftest import subscribe

pytestmark = pytest.mark.django_db

# Every card of the cast by name and type: no notification may carry one.
CARD_WORDS = ("priest", "judge", "elder", "oracle", "spy", "gravedigger", "inquisitor",
              "cupid", "harlot", "wizard", "witch", "lover", "villager", "coven")  # fmt: skip
WOLF_CAST = [("Ann", "seer", ""), ("Bob", "werewolf", ""), ("Cat", "werewolf", ""),
             ("Dan", "villager", ""), ("Eve", "villager", ""), ("Fay", "villager", ""),
             ("Gus", "villager", "")]  # fmt: skip


def _only_words(message, game):
    """The message is {title, body, url, tag} and nothing of the news itself."""
    assert set(message) == {"title", "body", "url", "tag"}
    assert message["title"] == "Witchhunt"
    low = message["body"].lower()
    assert not [w for w in CARD_WORDS if w in low.replace(game.title.lower(), "")], message
    return message


def _fresh(game):
    game.refresh_from_db()
    return game


def test_a_started_game_tells_each_subscribed_player_their_cards_are_dealt(
    push_service, push_jobs, moderator, cast_users, django_capture_on_commit_callbacks
):
    subs = {n: subscribe(push_service, cast_users[n]) for n in ("ann", "hal")}
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
    assert push_service.refused == []
    for name, sub in subs.items():
        [message] = push_service.messages_to(sub)
        _only_words(message, game)
        assert message == {
            "title": "Witchhunt",
            "body": "Your cards are dealt in The named cast.",
            "url": f"/games/{game.pk}/role/",
            "tag": f"role-{game.pk}",
        }, name
    # Headers a push service reads: a time to live and an urgency; encrypted as RFC 8291 says.
    received = push_service.received[0]
    assert received.headers["content-encoding"] == "aes128gcm"
    assert int(received.headers["ttl"]) > 0 and received.headers["urgency"] == "normal"
    assert PushSubscription.objects.filter(last_success_at__isnull=False).count() == 2


def test_a_nights_result_is_told_without_the_result(
    push_service, push_jobs, moderator, django_capture_on_commit_callbacks
):
    users = {n.lower(): UserFactory(player_name=n) for n, _, _ in WOLF_CAST}
    game = make_game(moderator, users, cast=WOLF_CAST, ruleset="werewolf")
    subs = {n: subscribe(push_service, users[n]) for n in ("ann", "dan")}
    from tests.games.afterlife_cast import lynch

    lynch(_fresh(game), users, "gus")
    services.action_submit(game=_fresh(game), user=users["ann"], action="ability", targets=["bob"])
    for wolf in ("bob", "cat"):
        services.action_submit(game=_fresh(game), user=users[wolf], action="pack", target="dan")
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_advance(game=_fresh(game), by=moderator)
    assert _fresh(game).phase == "day 2"
    [message] = push_service.messages_to(subs["ann"])  # the Seer learned what Bob is
    assert _only_words(message, game)["body"] == "You have a new result in The named cast."
    assert message["url"] == f"/games/{game.pk}/role/"
    assert "werewolf" not in message["body"].lower() and "bob" not in message["body"].lower()
    assert push_service.messages_to(subs["dan"]) == []  # killed, told nothing of his own


def test_a_deadline_near_tells_those_the_game_waits_for_by_push_even_without_email(
    push_service, push_jobs, game, traveller, cast_users, django_capture_on_commit_callbacks
):
    services.vote_cast(game=game, user=cast_users["ann"], target="bob")
    subs = {n: subscribe(push_service, cast_users[n]) for n in ("ann", "eve")}
    cast_users["eve"].email_deadline_reminders = False  # push only
    cast_users["eve"].save()
    mail.outbox.clear()
    traveller.move_to(T0 + timedelta(hours=48))
    with django_capture_on_commit_callbacks(execute=True):
        sweep.reminder_sweep()
    assert push_service.messages_to(subs["ann"]) == []  # Ann voted: the game waits not
    [message] = push_service.messages_to(subs["eve"])
    assert message["body"] == "A deadline is near in The named cast and the game waits for you."
    assert message["url"] == f"/games/{game.pk}/role/"
    assert "eve@" not in " ".join(m.to[0] for m in mail.outbox) or not mail.outbox
    assert not [m for m in mail.outbox if m.to == [cast_users["eve"].email]]  # no email
    # Once: the next sweep tells nobody again.
    traveller.move_to(T0 + timedelta(hours=50))
    with django_capture_on_commit_callbacks(execute=True):
        sweep.reminder_sweep()
    assert len(push_service.messages_to(subs["eve"])) == 1


def test_a_mention_goes_by_the_channels_the_member_chose(
    push_service, push_jobs, cast_game, cast_users, django_capture_on_commit_callbacks
):
    dan, eve = cast_users["dan"], cast_users["eve"]
    dan_sub, eve_sub = subscribe(push_service, dan), subscribe(push_service, eve)
    dan.email_mentions = True  # email only: push off for mentions
    dan.save()
    push.choices_save(user=dan, wanted={"role", "result", "reminder", "replacement"})
    eve.email_mentions = False  # push only
    eve.save()
    mail.outbox.clear()
    with tasks_in_process(), django_capture_on_commit_callbacks(execute=True):
        services.post_create(
            game=cast_game, user=cast_users["ann"], body="@Dan @Eve Secret-text-1234 here."
        )
    assert push_service.messages_to(dan_sub) == []
    [message] = push_service.messages_to(eve_sub)
    assert message["body"] == "Someone mentioned or quoted you in The named cast."
    assert message["url"] == "/notifications/"
    assert "Secret-text-1234" not in str(push_service.received[0].plaintext)
    assert [m.to for m in mail.outbox] == [[dan.email]]  # the email went to Dan alone


def test_a_replacement_offer_is_told_by_push(
    push_service, push_jobs, cast_game, cast_users, django_capture_on_commit_callbacks
):
    vic = UserFactory(player_name="Vic")
    replacements.volunteer_join(user=vic, game=cast_game, hours_per_week=10, note="")
    sub = subscribe(push_service, vic)
    with django_capture_on_commit_callbacks(execute=True):
        replacements.leave_ask(game=cast_game, user=cast_users["bob"], note="Moving house")
    [message] = push_service.messages_to(sub)
    assert message["body"] == "You are offered a seat in The named cast."
    assert message["url"] == "/replacements/"
    assert "moving" not in message["body"].lower()


def test_a_subscription_the_push_service_says_is_gone_is_removed(
    push_service, push_jobs, moderator, cast_users, django_capture_on_commit_callbacks
):
    kept = subscribe(push_service, cast_users["ann"])
    subscribe(push_service, cast_users["ann"], kind="gone")
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)
    assert len(push_service.messages_to(kept)) == 1
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept["endpoint"]]
    assert push_service.refused == []


def test_a_failing_push_service_is_tried_again_then_given_up(
    push_service, moderator, cast_users, caplog
):
    broken = subscribe(push_service, cast_users["ann"], kind="broken")
    game = make_game(moderator, cast_users)
    sent = push.member_told_push(user_id=cast_users["ann"].pk, game_id=game.pk, kind="result")
    row = PushSubscription.objects.get()
    assert sent.sent == 0 and sent.retry == (row.pk,) and row.failures == 1
    # The tries that follow (push_again), the last of them queueing no more.
    for attempt in range(len(push_tasks.AGAIN_AFTER)):
        assert push_tasks.push_again.run(row.pk, sent.data, "result", attempt) == push.FAILED
    row.refresh_from_db()
    assert row.failures == 1 + len(push_tasks.AGAIN_AFTER)  # kept: a service may come back
    # The logs name the subscription and the host, never the endpoint's secret path.
    token = broken["endpoint"].rsplit("/", 1)[1]
    assert "failed" in caplog.text and token not in caplog.text


def test_a_member_who_turned_a_kind_off_gets_no_push_of_it(
    push_service, push_jobs, moderator, cast_users, django_capture_on_commit_callbacks
):
    sub = subscribe(push_service, cast_users["ann"])
    push.choices_save(user=cast_users["ann"], wanted={"mention"})
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)
    assert push_service.messages_to(sub) == []
    assert PushChoice.objects.filter(user=cast_users["ann"], push=True).count() == 1


def test_the_stand_in_refuses_a_message_signed_with_another_key(
    moderator, cast_users, push_jobs, django_capture_on_commit_callbacks
):
    """The stand-in's VAPID check can fail: a service that expects another key refuses."""
    from games.push.keys import key_pair

    from .pushservice import PushService

    with PushService(key_pair()[1]) as other:
        subscribe(other, cast_users["ann"])
        with django_capture_on_commit_callbacks(execute=True):
            make_game(moderator, cast_users)
        assert other.received == [] and other.refused and "key" in other.refused[0][1]


@override_settings(WEBPUSH_VAPID_PRIVATE_KEY="")
def test_without_keys_nothing_is_queued(moderator, cast_users, django_capture_on_commit_callbacks):
    from tests.broker import broker_queue

    with broker_queue("email") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            make_game(moderator, cast_users)
        names = []
        while True:
            try:
                names.append(queued.get(block=False).headers["task"])
            except Exception:
                break
    assert "games.push.tasks.push_member_told" not in names
    assert CAST


def test_a_nights_result_is_emailed_to_a_player_who_asked_as_a_link_and_never_the_result(
    push_service, push_jobs, moderator, django_capture_on_commit_callbacks
):
    """The email channel of a result (User.email_results, opt-in): the Seer who asked gets
    the link to her role page, once; nobody else gets one, and no email names the result."""
    from games import queue, tasks
    from games.models import EmailSent

    users = {n.lower(): UserFactory(player_name=n) for n, _, _ in WOLF_CAST}
    for name in ("ann", "dan"):
        users[name].email_results = True
        users[name].save()
    game = make_game(moderator, users, cast=WOLF_CAST, ruleset="werewolf")
    from tests.games.afterlife_cast import lynch

    lynch(_fresh(game), users, "gus")
    services.action_submit(game=_fresh(game), user=users["ann"], action="ability", targets=["bob"])
    for wolf in ("bob", "cat"):
        services.action_submit(game=_fresh(game), user=users[wolf], action="pack", target="dan")
    mail.outbox.clear()
    queue.connect_job("game_result_email", tasks.game_result_email.run)
    try:
        with tasks_in_process(), django_capture_on_commit_callbacks(execute=True):
            services.phase_advance(game=_fresh(game), by=moderator)
    finally:
        tasks.connect_receivers()
    results = [m for m in mail.outbox if "result" in m.subject]
    assert [m.to for m in results] == [[users["ann"].email]]  # not Dan: he learned nothing
    [message] = results
    assert message.subject == "[Witchhunt] The named cast: a new result on your role page"
    for text in (message.body, message.alternatives[0][0]):
        assert f"/games/{game.pk}/role/" in text
        assert "werewolf" not in text.lower() and "Bob" not in text
    # Once: the task run again writes nothing more.
    assert tasks.game_result_email.run(game.pk, users["ann"].pk, "day 2") == 0
    assert EmailSent.objects.filter(kind="result").count() == 1
    # A player who did not ask gets none.
    EmailSent.objects.filter(kind="result").delete()
    users["ann"].email_results = False
    users["ann"].save()
    assert tasks.game_result_email.run(game.pk, users["ann"].pk, "day 2") == 0
