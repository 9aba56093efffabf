"""Non-interference for the calendar feeds (tests/games/noninterference.py): twin games that
differ in one hidden input give byte-identical feeds, headers included (ETag, Last-Modified,
Cache-Control), to everyone: a game's public feed, and the private feed of every member of
the game, the moderator's too (a feed shows only what the public thread shows about time,
whoever reads it). And the harness tells a public move of the deadline apart."""

from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.urls import reverse

from games import services
from games.calendar.services import feed_renew
from games.calendar.tokens import token_for
from tests.games.noninterference import T0, differences, twins
from tests.games.test_noninterference import HIDDEN, _refresh, _witchhunt

pytestmark = pytest.mark.django_db

MEMBERS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "mod")
NONCES = {name: f"{i:064x}" for i, name in enumerate(MEMBERS, start=1)}
# Every feed is read by its address alone: one reader (a visitor with the addresses) reads
# them all, with the game page and its links.
READERS = ("anonymous",)


def _feeds():
    return [reverse("calendar_member_feed", args=[token_for(NONCES[n])]) for n in MEMBERS]


def _with_feeds(story, extra):
    """`story` with a private address for each member, the same in both twins, and the
    game's public feed added to `extra`, the addresses each reader is given (read when
    they read: the game's id is known once it is made)."""

    def told(hidden):
        made = False
        for checkpoint, game, users in story(hidden):
            if not made:
                for name in MEMBERS:
                    with mock.patch("games.calendar.services.new_nonce", lambda n=name: NONCES[n]):
                        feed_renew(user=users[name])
                extra[:] = [*_feeds(), reverse("calendar_game_feed", args=[game.pk])]
                made = True
            yield checkpoint, game, users

    return told


def _calendar_served(first, second):
    """Only the calendar's answers (the rest is test_noninterference.py's)."""
    keep = ("/calendar/", "/calendar.ics")
    return [
        {key: {u: a for u, a in served.items() if any(k in u for k in keep)}
         for key, served in twin.items() if isinstance(served, dict)}
        for twin in (first, second)
    ]  # fmt: skip


def _read(story):
    extra = []
    first, second = twins(_with_feeds(story, extra), READERS, extra=extra)
    first, second = _calendar_served(first, second)
    read = [url for served in first.values() for url in served]
    assert any(url.endswith("/calendar.ics") for url in read), "the public feed was not read"
    assert sum("/calendar/" in url for url in read) >= len(MEMBERS), "the feeds were not read"
    for served in first.values():
        for url, (status, _headers, body) in served.items():
            assert status == 200, (url, status)
            assert "BEGIN:VEVENT" in body, url
    return first, second


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HIDDEN))
def test_a_hidden_input_changes_no_calendar_feed(name):
    first, second = _read(_witchhunt(name))
    assert not differences(first, second), "\n".join(differences(first, second)[:8])


@pytest.mark.slow
def test_the_twins_tell_a_public_move_of_the_deadline_apart():
    def story(hidden):
        for checkpoint, game, users in _witchhunt("a night action")(False):
            if hidden and checkpoint == "night 1":
                with time_machine.travel(T0 + timedelta(minutes=1), tick=False):
                    services.clock_extend(
                        game=_refresh(game), by=users["mod"], delta=timedelta(hours=1)
                    )
            yield checkpoint, _refresh(game), users

    first, second = _read(story)
    found = differences(first, second)
    assert any("/calendar.ics" in line for line in found), found
    assert sum("/calendar/" in line for line in found) >= len(MEMBERS), found
