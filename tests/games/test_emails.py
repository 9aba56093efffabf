"""Game emails in the outbox: reminders (who, when, at most once, in the player's time
zone), phase changes, the role email, and RFC 8058 one-click unsubscribe."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client

from games import mail as game_mail
from games import services, tasks, turns
from games.engine.rulesets.witchhunt.cards import CHARACTERS
from games.mapping import engine_state
from games.models import EmailSent, Game, GameEvent
from games.services import sweep
from tests.games.conftest import CAST, T0, make_game
from witchhunt.celery import app as celery_app

DAY = timedelta(hours=72)
CARD_WORDS = {  # every card of the cast, as the role email names them
    "ann": ("Priest", "Holy Villager"),
    "bob": ("Judge", "Elder Witch"),
    "cat": ("Oracle", "Village Spy"),
    "dan": ("Gravedigger", "Basic Villager"),
    "eve": ("Inquisitor", "Basic Villager"),
    "fay": ("Cupid", "Village Lover"),
    "gus": ("Harlot", "Village Lover"),
    "hal": ("Wizard", "Junior Witch"),
}


@pytest.fixture
def eager_tasks():
    """Tasks queued on commit run at once, in this process (the worker's code path)."""
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def _by_recipient(messages):
    out = {}
    for m in messages:
        assert len(m.to) == 1 and not m.cc and not m.bcc  # one address per message
        out[m.to[0].split("@")[0]] = m
    return out


def _html(message):
    return message.alternatives[0][0]


def _sweep(capture, now=None):
    """Both of the beat's sweeps, the clock's then the reminders'."""
    with capture(execute=True):
        return {**sweep.clock_sweep(now), **sweep.reminder_sweep(now)}


# --- reminders ------------------------------------------------------------------------------
def test_day_reminder_goes_only_to_living_players_who_have_not_voted(
    game, traveller, cast_users, django_capture_on_commit_callbacks
):
    services.vote_cast(game=game, user=cast_users["ann"], target="bob")
    cast_users["eve"].email_deadline_reminders = False
    cast_users["eve"].save()
    assert _fresh(game).next_reminder_at == T0 + DAY - timedelta(hours=24)
    traveller.move_to(T0 + timedelta(hours=47, minutes=59))
    assert _sweep(django_capture_on_commit_callbacks) == {}
    traveller.move_to(T0 + timedelta(hours=48))
    assert _sweep(django_capture_on_commit_callbacks) == {sweep.REMINDED: 1}
    sent = _by_recipient(mail.outbox)
    assert set(sent) == {"bob", "cat", "dan", "fay", "gus", "hal"}  # not Ann (voted), not Eve
    assert EmailSent.objects.filter(kind="reminder", phase="day 1", hours=24).count() == 6


def test_reminder_says_deadline_in_the_players_zone_the_vote_count_and_a_link(
    game, traveller, cast_users, django_capture_on_commit_callbacks
):
    cat = cast_users["cat"]
    cat.time_zone = "America/New_York"
    cat.save()
    services.vote_cast(game=game, user=cast_users["ann"], target="bob")
    traveller.move_to(T0 + timedelta(hours=48))
    _sweep(django_capture_on_commit_callbacks)
    message = _by_recipient(mail.outbox)["cat"]
    assert message.subject == "[Witchhunt] The named cast: Day 1 ends in 1 d"
    for text in (message.body, _html(message)):
        assert "Thursday 5 March, 13:00 EST" in text  # Cat's own time zone
        assert "Thu 5 Mar, 18:00 UTC" in text
        assert "with 8 alive it takes 5" in text
        assert "Bob (1): Ann" in text and "L-4" in text
        assert f"http://127.0.0.1:8000/games/{game.pk}/" in text
        assert "You have not voted yet" in text


def test_each_reminder_is_sent_at_most_once(
    game, traveller, cast_users, django_capture_on_commit_callbacks
):
    traveller.move_to(T0 + timedelta(hours=48))
    _sweep(django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 8
    traveller.move_to(T0 + timedelta(hours=50))
    assert _sweep(django_capture_on_commit_callbacks) == {}  # the second sweep: nothing new
    # Even a worker that missed the game's own record (a race) finds the unique rows.
    Game.objects.filter(pk=game.pk).update(reminders_sent=[])
    with django_capture_on_commit_callbacks(execute=True):
        assert services.reminders_decide(game=_fresh(game), now=T0 + timedelta(hours=50)) is None
    assert len(mail.outbox) == 8


def test_the_one_hour_reminder_follows_for_those_still_not_voting(
    game, traveller, cast_users, django_capture_on_commit_callbacks
):
    traveller.move_to(T0 + timedelta(hours=48))
    _sweep(django_capture_on_commit_callbacks)
    for voter in ("ann", "bob", "cat"):
        services.vote_cast(game=game, user=cast_users[voter], target="dan")
    mail.outbox.clear()
    traveller.move_to(T0 + DAY - timedelta(hours=1))
    assert _sweep(django_capture_on_commit_callbacks) == {sweep.REMINDED: 1}
    assert set(_by_recipient(mail.outbox)) == {"dan", "eve", "fay", "gus", "hal"}
    assert mail.outbox[0].subject.endswith("Day 1 ends in 1 h")
    assert _fresh(game).next_reminder_at is None


def test_night_reminder_goes_to_seats_with_a_duty_and_the_dead_with_a_vote(
    game, traveller, cast_users, django_capture_on_commit_callbacks
):
    for voter in ("ann", "cat", "eve", "fay", "gus"):  # Dan, a Villager, becomes an Angel
        services.vote_cast(game=game, user=cast_users[voter], target="dan")
    night = _fresh(game)
    # A 24 h night has no 24 h reminder: the night-falls email already says when it ends.
    assert night.next_reminder_at == night.deadline_at - timedelta(hours=1)
    traveller.move_to(night.midnight_at)
    _sweep(django_capture_on_commit_callbacks)  # midnight passes
    services.action_submit(
        game=game, user=cast_users["ann"], action="ability", targets=["bob"]
    )  # the Priest acted
    traveller.move_to(night.deadline_at - timedelta(hours=1))
    state = engine_state(_fresh(game))
    expected = {name.lower() for name, _, _ in CAST if turns.awaited(state, name.lower())}
    assert "dan" in expected and "ann" not in expected
    assert _sweep(django_capture_on_commit_callbacks) == {sweep.REMINDED: 1}
    sent = _by_recipient(mail.outbox)
    assert set(sent) == expected
    assert all(
        "You have not submitted a night action yet" in m.body for n, m in sent.items() if n != "dan"
    )
    assert "The afterlife has a vote to cast" in sent["dan"].body
    for message in sent.values():
        # Night is secret: no count ("L-2") in the words (a link's random token may hold "L-").
        words = re.sub(r"https?://\S+", "", message.body)
        assert not re.search(r"\bL-\d", words) and "vote count" not in words
        assert f"/games/{game.pk}/role/" in message.body


def test_paused_games_send_no_reminders_until_resumed(
    game, traveller, moderator, django_capture_on_commit_callbacks
):
    services.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=60))
    assert _sweep(django_capture_on_commit_callbacks) == {}
    services.clock_resume(game=game, by=moderator)  # the deadline is now 60 h later
    assert _fresh(game).next_reminder_at == T0 + timedelta(hours=60 + 48)
    assert mail.outbox == []


# --- phase changes --------------------------------------------------------------------------
def test_night_falls_email_tells_the_lynch_to_players_who_want_it(
    game, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    cast_users["gus"].email_phase_changes = False
    cast_users["gus"].save()
    with django_capture_on_commit_callbacks(execute=True):
        for voter in ("ann", "cat", "dan", "eve", "fay"):
            services.vote_cast(game=game, user=cast_users[voter], target="hal")
    sent = _by_recipient(mail.outbox)
    assert set(sent) == {"ann", "bob", "cat", "dan", "eve", "fay", "hal"}
    message = sent["ann"]
    assert message.subject == "[Witchhunt] The named cast: Night 1 falls"
    assert "The town lynches Hal." in message.body and "Hal has died." in message.body
    assert "Night 1 ends" in message.body and "Midnight is" in message.body
    assert "Wizard" not in message.body and "Junior" not in message.body  # W-16


def test_phase_email_is_sent_once_even_if_the_task_runs_twice(game, cast_users):
    services.phase_advance(game=game, by=game.host)
    first = GameEvent.objects.get(game=game, kind="phase", data__phase="night 1").index
    assert tasks.game_phase_emails(game.pk, "phase", "night 1", first) == 8
    assert tasks.game_phase_emails(game.pk, "phase", "night 1", first) == 0


def test_morning_email_announces_the_nights_deaths_and_nothing_private(
    game, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    services.phase_advance(game=game, by=game.host)
    services.action_submit(game=game, user=cast_users["bob"], action="coven", target="dan")
    services.action_submit(game=game, user=cast_users["ann"], action="ability", targets=["bob"])
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_advance(game=game, by=game.host)
    message = _by_recipient(mail.outbox)["eve"]
    assert message.subject.endswith("Day 2 begins")
    assert "Dan has died." in message.body
    # Neither the Coven's vote nor the Priest's check reaches anyone by email.
    assert "coven" not in message.body.lower() and "priest" not in message.body.lower()


def test_the_end_of_the_game_is_emailed(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    game = make_game(moderator, cast_users)
    with django_capture_on_commit_callbacks(execute=True):
        for witch in ("bob", "hal"):
            for voter in ("ann", "cat", "dan", "eve", "fay"):
                if _fresh(game).status == Game.Status.RUNNING and not _fresh(game).is_night:
                    services.vote_cast(game=game, user=cast_users[voter], target=witch)
            if _fresh(game).is_night:
                services.phase_advance(game=game, by=moderator)
    game = _fresh(game)
    assert game.status == Game.Status.FINISHED
    ends = [m for m in mail.outbox if m.subject.endswith("the game is over")]
    assert len(ends) == 8 and "The game is over: the Village wins." in ends[0].body


# --- the role email -------------------------------------------------------------------------
def test_role_email_names_only_the_recipients_own_cards(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
    sent = _by_recipient(mail.outbox)
    # The host was told the game filled (issue 16): the role emails go to the players.
    assert "every seat is taken" in sent.pop("mod").body.lower()
    assert set(sent) == set(CARD_WORDS)
    for name, message in sent.items():
        assert message.subject == "[Witchhunt] The named cast has started: your cards"
        # Another seat's card named anywhere is a leak, unless the recipient's own card
        # text mentions it (the Inquisitor's text names Holy Villagers).
        own_text = CHARACTERS[cast_users[name].seats.get().assignment.character][3]
        others = {
            w
            for n, words in CARD_WORDS.items()
            if n != name
            for w in words
            if w not in CARD_WORDS[name] and w not in own_text
        }
        for text in (message.body, _html(message)):
            for word in CARD_WORDS[name]:
                assert word in text
            assert not [w for w in others if w in text], name
        assert f"/games/{game.pk}/role/" in message.body
    assert tasks.game_role_emails(game.pk) == 0  # at most once


def test_replacement_gets_the_seats_role_email_once(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    from games import services
    from tests.factories import UserFactory

    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(moderator, cast_users)
    mail.outbox.clear()
    newcomer = UserFactory(player_name="Newcomer")
    with django_capture_on_commit_callbacks(execute=True):
        services.player_replace(game=game, seat_name="bob", new_user=newcomer, by=moderator)
    assert [m.to for m in mail.outbox] == [[newcomer.email]]  # nobody else is re-sent
    assert "Judge" in mail.outbox[0].body  # Bob's seat's card, now the newcomer's
    assert tasks.game_role_emails(game.pk) == 0


def test_role_email_respects_the_phase_change_preference(moderator, cast_users):
    game = make_game(moderator, cast_users)
    cast_users["ann"].email_phase_changes = False
    cast_users["ann"].save()
    assert tasks.game_role_emails(game.pk) == 7


# --- unsubscribe (RFC 8058) -----------------------------------------------------------------
@pytest.fixture
def reminder(game, traveller, django_capture_on_commit_callbacks):
    traveller.move_to(T0 + timedelta(hours=48))
    _sweep(django_capture_on_commit_callbacks)
    return _by_recipient(mail.outbox)["ann"]


def _unsubscribe_path(message):
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<http://127.0.0.1:8000/email/unsubscribe/") and header.endswith(">")
    return header[1:-1].removeprefix("http://127.0.0.1:8000")


def test_every_game_email_carries_one_click_unsubscribe_headers(reminder):
    assert reminder.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert _unsubscribe_path(reminder) in reminder.body
    sent = reminder.message()  # the MIME message as it goes on the wire
    assert sent["List-Unsubscribe"] == reminder.extra_headers["List-Unsubscribe"]
    assert sent["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_unsubscribe_get_shows_a_confirm_page_and_changes_nothing(reminder, client, cast_users):
    response = client.get(_unsubscribe_path(reminder))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Stop sending <strong>deadline reminders</strong> to Ann?" in html
    assert 'method="post"' in html
    cast_users["ann"].refresh_from_db()
    assert cast_users["ann"].email_deadline_reminders is True


def test_unsubscribe_post_with_a_bad_token_is_refused(reminder, client, cast_users):
    path = _unsubscribe_path(reminder)
    tampered = path.replace("/unsubscribe/", "/unsubscribe/x")
    forged = game_mail.unsubscribe_token(cast_users["ann"], "reminders")[:-2] + "AA"
    for bad in (tampered, f"/email/unsubscribe/{forged}/", "/email/unsubscribe/nonsense/"):
        response = client.post(bad, {"List-Unsubscribe": "One-Click"})
        assert response.status_code == 400
        assert "This link is not valid" in response.content.decode()
    cast_users["ann"].refresh_from_db()
    assert cast_users["ann"].email_deadline_reminders is True


def test_unsubscribe_one_click_post_turns_only_that_preference_off(reminder, cast_users):
    mail_client = Client(enforce_csrf_checks=True)  # a mail client: no cookie, no CSRF token
    response = mail_client.post(_unsubscribe_path(reminder), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and "no longer get" in response.content.decode()
    ann = cast_users["ann"]
    ann.refresh_from_db()
    assert ann.email_deadline_reminders is False and ann.email_phase_changes is True
    cast_users["bob"].refresh_from_db()
    assert cast_users["bob"].email_deadline_reminders is True


def test_unsubscribed_player_gets_no_more_reminders(
    reminder, traveller, cast_users, django_capture_on_commit_callbacks
):
    Client().post(_unsubscribe_path(reminder))
    mail.outbox.clear()
    traveller.move_to(T0 + DAY - timedelta(hours=1))
    _sweep(django_capture_on_commit_callbacks)
    assert "ann" not in _by_recipient(mail.outbox) and "bob" in _by_recipient(mail.outbox)


def test_unsubscribe_token_names_the_user_and_preference(cast_users):
    token = game_mail.unsubscribe_token(cast_users["cat"], "phases")
    assert game_mail.unsubscribe_read(token) == (cast_users["cat"], "phases")
    with pytest.raises(ValueError):
        game_mail.unsubscribe_token(cast_users["cat"], "everything")


def _fresh(game):
    return Game.objects.get(pk=game.pk)


def test_werewolf_night_reminder_after_midnight_goes_to_the_seer_and_the_witch(
    traveller, moderator, cast_users, django_capture_on_commit_callbacks
):
    roles = [
        "seer",
        "werewolf",
        "villager",
        "villager",
        "werewolf",
        "villager",
        "witch",
        "villager",
    ]
    cast = [(name, role, "") for (name, _, _), role in zip(CAST, roles, strict=True)]
    game = make_game(moderator, cast_users, cast=cast, ruleset="werewolf")
    services.phase_advance(game=game, by=moderator)
    services.action_submit(game=game, user=cast_users["bob"], action="pack", target="cat")
    night = _fresh(game)
    traveller.move_to(night.deadline_at - timedelta(hours=1))
    assert _sweep(django_capture_on_commit_callbacks) == {sweep.MIDNIGHT: 1, sweep.REMINDED: 1}
    # After midnight the pack's victim is locked (WW-5), so the Werewolves have nothing
    # left to do; the Seer has not looked, and the Witch may heal the victim.
    assert set(_by_recipient(mail.outbox)) == {"ann", "gus"}
