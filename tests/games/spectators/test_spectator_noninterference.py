"""Non-interference for spectators (tests/games/noninterference.py), two ways:

- a spectator is a viewer of their own: with no delay they do see a hidden input (the
  twins differ on their page), and one phase behind they see nothing of the current
  phase's hidden inputs nor of the previous one's (every byte they are served is the same);
- no player's page changes by one byte because spectators exist: twins that differ only in
  spectators following and writing in their thread serve every player, the dead and a
  visitor the same bytes.
"""

import pytest
from django.urls import reverse

from games.engine import Phase
from games.spectators import services as spectating
from tests.factories import UserFactory
from tests.games.noninterference import differences, twins
from tests.games.test_noninterference import HIDDEN, VIEWERS, _witchhunt

pytestmark = pytest.mark.django_db

SPECTATOR = "sue"


def _spectated(story, delay, extra, *, spectators=True, posts=False):
    """`story` in a game that allows spectators (with `delay`); Sue follows it when
    `spectators`, and writes in the spectators' thread when `posts`. `extra` gets the
    spectators' page and thread (read by every reader: a 404 to the players)."""

    def told(hidden):
        first = True
        for checkpoint, game, users in story(hidden):
            if first:
                users[SPECTATOR] = UserFactory(player_name="Sue", email="sue@example.com")
                spectating.settings_store(game, allowed=True, delay=delay, dead_see=False)
                if spectators:
                    spectating.spectate_start(game=game, user=users[SPECTATOR])
                extra[:] = [
                    reverse("spectator_page", args=[game.pk]),
                    reverse("spectators_thread", args=[game.pk]),
                ]
                first = False
            if posts:
                spectating.spectator_post(
                    game=game, user=users[SPECTATOR], body=f"Sue-note at {checkpoint}"
                )
            yield checkpoint, game, users

    return told


def _spectator_twins(name, delay):
    extra = []
    first, second = twins(_spectated(_witchhunt(name), delay, extra), (SPECTATOR,), extra=extra)
    pages = [url for served in first.values() for url in served if "/spectate/" in url]
    assert any(url.endswith("/spectate/") for url in pages), "the spectators' page was not read"
    assert any("/spectate/rooms/" in url for url in pages), "no room was read"
    return first, second


def _hidden_from_delayed(at: str, checkpoint: str) -> bool:
    """One phase behind, an input of phase `at` is hidden at `checkpoint` (delay.py)."""
    return Phase.parse(at) >= Phase.parse(checkpoint).previous()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["a night action", "a room post", "an afterlife post"])
def test_a_spectator_with_no_delay_sees_the_hidden_input(name):
    first, second = _spectator_twins(name, "none")
    at = HIDDEN[name].at
    found = [d for d in differences(first, second) if f"('{at}', '{SPECTATOR}')" in d]
    assert any("/spectate/" in d for d in found), differences(first, second)[:4]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HIDDEN))
def test_a_spectator_one_phase_behind_sees_nothing_of_the_current_or_previous_phase(name):
    first, second = _spectator_twins(name, "phase")
    at = HIDDEN[name].at
    hidden = [c for c in ("day 1", "night 1", "day 2") if _hidden_from_delayed(at, c)]
    keys = [k for k in first if k[0] in hidden]
    assert keys, "no checkpoint hides the input"
    found = differences({k: first[k] for k in keys}, {k: second[k] for k in keys})
    assert not found, "\n".join(found[:8])


@pytest.mark.slow
def test_a_spectator_one_phase_behind_sees_a_room_post_once_its_phase_is_past():
    """The harness tells the delay's release apart: Day 1's room post shows on Day 2."""
    first, second = _spectator_twins("a room post", "phase")
    found = [d for d in differences(first, second) if "('day 2', 'sue')" in d]
    assert any("/spectate/rooms/" in d for d in found), differences(first, second)[:4]


PLAYERS = (*VIEWERS, "ann", "bob", "hal")  # a visitor, an outsider, the living, the dead


@pytest.mark.slow
@pytest.mark.parametrize("delay", ["none", "phase"])
def test_no_player_page_changes_because_spectators_exist(delay):
    extra = []
    plain = _spectated(_witchhunt("a night action"), delay, extra, spectators=False)
    watched = _spectated(_witchhunt("a night action"), delay, extra, spectators=True, posts=True)
    # The same story in both twins (no hidden input): only the spectators differ.
    first, second = twins(
        lambda spectators: (watched if spectators else plain)(False), PLAYERS, extra=extra
    )
    read = [url for key, urls in first.items() if len(key) == 2 for url in urls]
    assert any("/spectate/thread/" in url for url in read)
    assert not differences(first, second), "\n".join(differences(first, second)[:8])
