"""Notifications stored as meaning (Notification.words, games/narration/said.py): what a
notification says is worded when read, in its reader's language, on the list and in the
email; those written before read the same English once migration 0021 has read them back,
and one that cannot be read back keeps its stored English."""

import importlib
from contextlib import contextmanager
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from games import services
from games.community import narration as community_words
from games.models import Notification
from games.narration.said import said_english
from games.reading.narration import notifications as reading_words
from games.selectors.notifications import notification_list
from games.services.inbox import notification_message, notifications_write
from tests.games.conftest import forget_start_notices, make_game

pytestmark = pytest.mark.django_db
recover = importlib.import_module("games.migrations.0021_notification_words_data").words_recover

MENTIONED = "%(author)s mentioned you in %(where)s (#%(number)s)."
MENTIONED_DE = "%(author)s HAT dich in %(where)s erwähnt (#%(number)s)."


@contextmanager
def german(entries: dict):
    """German words for some msgids, in the loaded German catalog, for the test's length
    (the catalog of the repository is regenerated from the code later)."""
    top = trans_real.translation("de")._catalog._catalogs[0]
    kept = {msgid: top[msgid] for msgid in entries if msgid in top}
    top.update(entries)
    try:
        yield
    finally:
        for msgid in entries:
            top.pop(msgid, None)
        top.update(kept)


@pytest.fixture
def game(moderator, cast_users):
    game = make_game(moderator, cast_users)
    forget_start_notices()
    return game


def _written(game, cast_users, moderator):
    """A mention, and one notification of each sentence the community and the alerts
    write, through the writers' own words."""
    services.post_create(game=game, user=cast_users["ann"], body="@bob look")
    zone = ZoneInfo("Europe/Paris")
    at = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)
    bob, host = cast_users["bob"].pk, moderator.pk
    rows = [
        (bob, "wagon", "w1", reading_words.wagon_words("Cat", "day 2", you=False)),
        (bob, "wagon", "w2", reading_words.wagon_words("Bob", "day 2", you=True)),
        (bob, "voted", "v1", reading_words.voted_words("Ann", "day 1")),
        (host, "signup", "s1", community_words.full_words()),
        (bob, "signup", "s2", community_words.started_words()),
        (host, "signup", "s3", community_words.site_started_words(9)),
        (host, "signup", "s4", community_words.lapsed_words(5, 9, at, zone)),
        (host, "signup", "s5", community_words.waiting_words(at, zone)),
        (bob, "replacement", "offer-1", community_words.offer_words("Cat", "Salem", "night 3")),
        (host, "replacement", "r2", community_words.leave_asked_words("Bob", "")),
        (host, "replacement", "r3", community_words.leave_asked_words("Bob", "Away: sorry")),
        (host, "replacement", "r4", community_words.member_left_words()),
        (bob, "prod", "p1", community_words.prod_words(1, "day 2", you=True)),
        (bob, "prod", "p2", community_words.prod_words(2, "day 2", you=True)),
        (host, "prod", "p3", community_words.prod_words(1, "day 2", name="Bob", you=False)),
        (host, "prod", "p4", community_words.prod_words(2, "day 2", name="Bob", you=False)),
    ]
    notifications_write(game, rows)
    return Notification.objects.filter(game=game)


def test_a_notification_keeps_meaning_and_its_english(game, cast_users, moderator):
    rows = _written(game, cast_users, moderator)
    assert rows.count() == 17 and not rows.filter(words={}).exists()
    mention = rows.get(kind="mention")
    assert mention.words["kind"] == "note_mention"
    assert mention.words["args"]["where"] == {"thread": "public", "ruleset": game.ruleset}
    assert mention.text == f"Ann mentioned you in the day thread (#{mention.post.number})."
    lapsed = rows.get(key="s4")
    assert lapsed.words["args"]["moment"] == {"at": "2026-12-04T17:00:00Z", "zone": "Europe/Paris"}
    # The English as the code wrote it before: the host's zone, the phase as a label.
    assert lapsed.text == (
        "The start date (Fri 4 Dec 2026, 18:00 (Europe/Paris)) has passed with 5 of 9 seats "
        "taken. Move the date, make the game smaller, or cancel it."
    )
    assert rows.get(key="offer-1").text == (
        "Cat's seat in Salem is offered to you (Night 3): take it or decline."
    )
    assert rows.get(key="p4").text == (
        "Bob was prodded a second time (Day 2) and is marked for replacement."
    )


def test_the_list_and_the_email_word_it_in_the_readers_language(client, game, cast_users):
    bob = cast_users["bob"]
    services.post_create(game=game, user=cast_users["ann"], body="@bob look")
    note = Notification.objects.get(user=bob, kind="mention")
    number = note.post.number
    client.force_login(bob)
    english = f"Ann mentioned you in the day thread (#{number})."
    with german({MENTIONED: MENTIONED_DE, "the day thread": "dem Tag"}):
        assert english in client.get(reverse("notifications")).content.decode()
        bob.language = "de"
        bob.save(update_fields=["language"])
        page = client.get(reverse("notifications")).content.decode()
        assert f"Ann HAT dich in dem Tag erwähnt (#{number})." in page
        assert english not in page
        # The email, in its recipient's language, wherever it is built.
        with translation.override("en"):
            message = notification_message(note, "mentions")
        assert f"Ann HAT dich in dem Tag erwähnt (#{number})." in message.body
        assert english not in message.body
    # The stored English is unchanged: switching back reads the same words.
    bob.language = "en"
    bob.save(update_fields=["language"])
    assert english in client.get(reverse("notifications")).content.decode()


def test_old_notifications_read_back_the_same_english(game, cast_users, moderator):
    rows = _written(game, cast_users, moderator)
    before = {n.pk: (n.words, n.text) for n in rows}
    rows.update(words={})  # as the code before wrote them: English only
    assert recover(Notification) == (17, 0)
    for n in Notification.objects.filter(game=game):
        assert (n.words, n.text) == before[n.pk]
        with translation.override("en"):
            assert said_english(n.words) == n.text


def test_a_notification_that_cannot_be_read_back_keeps_its_english(
    client, game, cast_users, moderator
):
    bob = cast_users["bob"]
    odd = [
        (bob.pk, "prod", "x1", {}, "A line no sentence of ours gives."),
        (bob.pk, "wagon", "x2", {}, "Zed is one vote from being lynched (day 2)."),
        (bob.pk, "signup", "x3", {}, "The start date (Fri 4 Dec 2026, 18:00 (Mars/Base)) has "
         "passed and every seat is taken: deal and start the game."),
    ]  # fmt: skip
    Notification.objects.bulk_create(
        Notification(user_id=u, game=game, kind=k, key=key, words=w, text=t)
        for u, k, key, w, t in odd
    )
    assert recover(Notification) == (0, 3)
    assert not Notification.objects.exclude(words={}).exists()
    client.force_login(bob)
    assert {row.text for row in notification_list(bob)} == {t for *_r, t in odd}
    page = client.get(reverse("notifications")).content.decode()
    assert "A line no sentence of ours gives." in page
