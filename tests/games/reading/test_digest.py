"""The daily digest (issue 15): opt-in in the profile, sent once a day at DIGEST_HOUR in each
member's own zone by the `email` queue's beat entry, exactly once even when two workers
reach it, with one-click unsubscribe like every game email; and the leak matrix's rule for
it: a digest says nothing its recipient's own pages would not show them."""

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from games import services
from games.reading.services.digest import (
    DIGEST_HOUR,
    _digest_claim,
    digest_due,
    digest_send,
    digests_send,
)
from games.reading.services.read_state import read_marks_all
from tests.factories import UserFactory
from tests.games.afterlife_cast import page_text, play_to_day_3
from tests.games.test_leaks import (
    AL,
    AL_FACTS,
    AL_KEYS,
    AL_SEATED,
    COURT_ROOMS,
    FACTS,
    KEYS,
    SEATS,
)

pytestmark = pytest.mark.django_db

@pytest.fixture(autouse=True)
def _sent_at_once(monkeypatch):
    """A test runs in one transaction that never commits: the digest's mail, written to
    the outbox and sent after the commit in the service, is sent at once here instead."""
    from games import mail as game_mail
    from games.services import outbox

    def written_and_sent(messages):
        outbox.emails_send(ids=game_mail.outbox_write(messages))

    monkeypatch.setattr("games.reading.services.digest.send_after_commit", written_and_sent)


# 07:30 in UTC: the digest's morning for a member on UTC.
MORNING_UTC = datetime(2026, 3, 3, DIGEST_HOUR, 30, tzinfo=UTC)


def _opt_in(*users, zone="UTC"):
    for user in users:
        User.objects.filter(pk=user.pk).update(email_digest=True, time_zone=zone)
    return [User.objects.get(pk=u.pk) for u in users]


def _texts(message):
    """A digest's plain text and its HTML's visible text, together."""
    html = next(body for body, kind in message.alternatives if kind == "text/html")
    return f"{message.body}\n{page_text(html)}", f"{message.body}\n{html}"


# --- when ----------------------------------------------------------------------------------------
def test_the_digest_is_due_once_a_day_in_the_members_morning():
    tokyo = UserFactory(time_zone="Asia/Tokyo", email_digest=True)
    # 07:30 in Tokyo is 22:30 UTC the day before.
    morning = datetime(2026, 3, 2, 22, 30, tzinfo=UTC)
    assert digest_due(tokyo, morning)
    assert not digest_due(tokyo, morning - timedelta(hours=1))  # 06:30 there: not yet
    assert not digest_due(tokyo, morning + timedelta(hours=4))  # the window has passed
    tokyo.digest_sent_at = morning
    assert not digest_due(tokyo, morning + timedelta(minutes=30))  # sent this morning
    assert digest_due(tokyo, morning + timedelta(days=1))  # the next morning
    local = (morning + timedelta(days=1)).astimezone(ZoneInfo("Asia/Tokyo"))
    assert local.hour == DIGEST_HOUR


def test_the_digest_goes_out_once_even_with_two_workers(cast_game, cast_users):
    ann, bob = _opt_in(cast_users["ann"], cast_users["bob"])
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="dan")
    assert digests_send(now=MORNING_UTC) == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted([ann.email, bob.email])
    assert digests_send(now=MORNING_UTC + timedelta(minutes=5)) == 0  # the next sweep
    assert len(mail.outbox) == 2
    # A rival worker that read the member before the claim finds it taken: nothing sent.
    stale = User.objects.get(pk=ann.pk)
    stale.digest_sent_at = None
    assert not _digest_claim(ann.pk, None, MORNING_UTC)
    assert not digest_send(user=stale, now=MORNING_UTC)
    assert len(mail.outbox) == 2
    # The next morning's comes, once.
    assert digests_send(now=MORNING_UTC + timedelta(days=1)) == 2


def test_only_members_who_asked_get_a_digest(cast_game, cast_users):
    (ann,) = _opt_in(cast_users["ann"])
    _opt_in(UserFactory())  # no game of theirs: nothing to tell
    _opt_in(cast_users["bob"], zone="Asia/Tokyo")  # 16:30 there: not his morning
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="dan")
    assert digests_send(now=MORNING_UTC) == 1
    assert [m.to for m in mail.outbox] == [[ann.email]]


def test_a_digest_with_nothing_to_tell_is_not_sent(cast_game, cast_users, moderator):
    (ann,) = _opt_in(cast_users["ann"])
    services.stalemate_declare(game=cast_game, by=moderator)  # over: nothing to do
    read_marks_all(user=ann, game=cast_game)
    from games.reading.services.read_state import game_visit_record

    game_visit_record(user=ann, game=cast_game)
    assert digests_send(now=MORNING_UTC) == 0
    assert User.objects.get(pk=ann.pk).digest_sent_at == MORNING_UTC  # the day is done


# --- what --------------------------------------------------------------------------------------
def test_the_digest_tells_what_changed_since_the_last_visit(client, cast_game, cast_users):
    (ann,) = _opt_in(cast_users["ann"], zone="Europe/Paris")
    client.force_login(ann)
    client.get(reverse("game_detail", args=[cast_game.pk]))  # her last visit
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="dan")
    services.vote_cast(game=cast_game, user=cast_users["eve"], target="dan")
    services.vote_cast(game=cast_game, user=cast_users["cat"], target="eve")
    services.post_create(game=cast_game, user=cast_users["bob"], body="> old\n\nCat is *scum*.")
    now = datetime(2026, 3, 3, DIGEST_HOUR + 1, 10, tzinfo=ZoneInfo("Europe/Paris"))
    assert digest_send(user=ann, now=now)
    (message,) = mail.outbox
    text, raw = _texts(message)
    assert message.subject.endswith("Your daily digest: 1 game")
    assert "Cat moved from Dan to Eve; Eve is now L-4, Dan L-4." in text
    assert "Bob: Cat is *scum*." in text  # the first line, quotes left out
    assert "You have not voted today." in text
    assert "your time" in text  # the deadline in her zone, beside UTC
    assert f"/games/{cast_game.pk}/since/" in raw
    # One-click unsubscribe, like every game email.
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = re.search(r"<(http[^>]+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    client.logout()
    assert client.post(urlsplit(link).path).status_code == 200
    assert not User.objects.get(pk=ann.pk).email_digest


def test_the_next_digest_starts_after_the_last(game, cast_users, traveller):
    """`game` starts at T0, Monday 18:00 UTC (time frozen, tests/games/conftest.py)."""
    (ann,) = _opt_in(cast_users["ann"])
    services.vote_cast(game=game, user=cast_users["cat"], target="dan")
    traveller.move_to(MORNING_UTC)
    assert digest_send(user=ann, now=MORNING_UTC)
    first, _ = _texts(mail.outbox[-1])
    assert "Cat voted for Dan" in first
    ann.refresh_from_db()
    traveller.move_to(MORNING_UTC + timedelta(hours=2))
    services.vote_cast(game=game, user=cast_users["eve"], target="dan")
    traveller.move_to(MORNING_UTC + timedelta(days=1))
    assert digest_send(user=ann, now=MORNING_UTC + timedelta(days=1))
    second, _ = _texts(mail.outbox[-1])
    assert "Eve voted for Dan; Dan is now L-3." in second  # the day replayed for the wagon
    assert "Cat voted for Dan" not in second  # yesterday's digest told it


def test_the_profile_turns_the_digest_on(client, member):
    client.force_login(member)
    page = client.get(reverse("profile")).content.decode()
    assert "daily digest" in page
    response = client.post(
        reverse("profile"),
        {"time_zone": "Europe/Paris", "email_deadline_reminders": "on", "email_digest": "on"},
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.email_digest and member.time_zone == "Europe/Paris"
    client.post(reverse("profile"), {"time_zone": "Europe/Paris"})
    member.refresh_from_db()
    assert not member.email_digest


# --- the leak matrix's rule for the digest ------------------------------------------------------
def _digest_of(user):
    mail.outbox.clear()
    (user,) = _opt_in(user)
    assert digest_send(user=user, now=MORNING_UTC), user
    (message,) = mail.outbox
    return _texts(message)


def _allowed(facts, viewer, text):
    seen = {fact for fact, (pattern, _, _) in facts.items() if re.search(pattern, text)}
    allowed = {fact for fact, (_, who, may) in facts.items() if viewer in who | may}
    assert seen <= allowed, f"{viewer}'s digest must not tell {sorted(seen - allowed)}"
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("viewer", SEATS)
def test_a_digest_tells_nobody_what_their_pages_would_not(court_game, court_users, viewer):
    for key, (members, note) in COURT_ROOMS.items():
        services.room_post(
            game=court_game, user=court_users[sorted(members)[0]], room=key, body=note
        )
    text, raw = _digest_of(court_users[viewer])
    seen = _allowed(FACTS, viewer, text)
    # Each member reads their own room's first lines there (so the test can fail).
    for key, (members, _note) in COURT_ROOMS.items():
        if viewer in members:
            assert f"the {key} room's posts" in seen, (viewer, key)
    assert not {k for k in KEYS if re.search(rf"\b{k}\b", raw)}, viewer
    assert not re.search(r"\blovers-\d", raw)


@pytest.mark.slow
@pytest.mark.parametrize("viewer", AL_SEATED)
def test_the_afterlife_and_the_replaced_read_only_their_own_in_the_digest(moderator, viewer):
    from tests.games.afterlife_cast import afterlife_users

    users = afterlife_users()
    game, newcomer = play_to_day_3(moderator, users)
    user = newcomer if viewer == "newcomer" else users[viewer]
    text, raw = _digest_of(user)
    seen = _allowed(AL_FACTS, viewer, text)
    if viewer in AL:  # the dead of the afterlife read every thread (W-17)
        assert "the Coven's thread" in seen
    else:
        assert not {k for k in AL_KEYS if re.search(rf"\b{k}\b", raw)}, viewer
    # The replaced player's old account has no seat: no digest of this game at all.
    mail.outbox.clear()
    (gus,) = _opt_in(users["gus"])
    digest_send(user=gus, now=MORNING_UTC)
    assert all(game.title not in m.body for m in mail.outbox)
