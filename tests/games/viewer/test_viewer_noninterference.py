"""Non-interference for the game viewer (tests/games/noninterference.py): while a game runs
its viewer is no page at all, the same 404 in twin games that differ in one hidden input,
for a visitor, a player and a dead player; and no page of a running game links to it."""

import pytest
from django.urls import reverse

from tests.games.noninterference import differences, twins
from tests.games.test_noninterference import _witchhunt

pytestmark = pytest.mark.django_db

READERS = ("anonymous", "cat", "bob")
VIEWS = ("public", "everything", "seat-bob", "seat-cat", "seat-ivy", "seat-jon")


def _with_viewer(story, extra):
    """`story` with the viewer's addresses of its game given to every reader."""

    def told(hidden):
        for checkpoint, game, users in story(hidden):
            extra[:] = [reverse("viewer_open", args=[game.pk])] + [
                reverse("viewer_step", args=[game.pk, view, step])
                for view in VIEWS
                for step in (1, 2, 40)
            ]
            yield checkpoint, game, users

    return told


def _viewer_served(first, second):
    return [
        {key: {u: a for u, a in served.items() if "/viewer/" in u}
         for key, served in twin.items() if isinstance(served, dict)}
        for twin in (first, second)
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", ["a room post", "a night action", "an afterlife act"])
def test_a_hidden_input_changes_nothing_the_viewer_serves_while_the_game_runs(name):
    extra = []
    first, second = twins(_with_viewer(_witchhunt(name), extra), READERS, extra=extra)
    everything = first
    first, second = _viewer_served(first, second)
    read = [url for served in first.values() for url in served]
    assert len(read) >= len(READERS) * len(VIEWS) * 3, "the viewer was not read"
    for served in first.values():
        for url, (status, _headers, _body) in served.items():
            assert status == 404, (url, status)
    assert not differences(first, second), "\n".join(differences(first, second)[:8])
    # No page a reader reached while the game ran links to its viewer.
    for key, served in everything.items():
        if isinstance(served, dict):
            for url, (_status, _headers, body) in served.items():
                assert "/viewer/" in url or "/viewer/" not in body, (key, url)
