"""A player's private notes (models.PlayerNote): the author's alone beside that player's
posts and in the player list, kept after the game, in the reveal only when shared."""

import pytest
from django.urls import reverse

from games import services
from games.models import PlayerNote

pytestmark = pytest.mark.django_db

SECRET = "Bob is sweating over the judge claim"


def _save(client, game, **data):
    return client.post(reverse("game_note_save", args=[game.pk]), data)


def _page(client, game):
    return client.get(reverse("game_detail", args=[game.pk])).content.decode()


@pytest.fixture
def noted(client, cast_game, cast_users):
    """Ann's scum read on Bob, and Bob's post in the thread."""
    services.post_create(game=cast_game, user=cast_users["bob"], body="I am a humble villager")
    client.force_login(cast_users["ann"])
    response = _save(client, cast_game, seat="bob", read="scum", text=SECRET)
    assert response.status_code == 302
    return cast_game


def test_the_author_sees_her_note_beside_the_posts_and_in_the_player_list(
    client, noted, cast_users
):
    html = _page(client, noted)
    # One badge beside Bob's post, one in the player list, each with the note's words.
    assert html.count("note-badge--scum") == 2 and html.count(SECRET) >= 2
    notes_page = client.get(reverse("game_notes", args=[noted.pk])).content.decode()
    assert SECRET in notes_page and '<option value="scum" selected>' in notes_page


@pytest.mark.slow
@pytest.mark.parametrize("who", ["bob", "cat", "moderator", "anonymous"])
def test_nobody_else_sees_the_note_anywhere(client, noted, cast_users, moderator, who):
    client.logout()
    if who == "moderator":
        client.force_login(moderator)
    elif who != "anonymous":
        client.force_login(cast_users[who])
    live = f"{reverse('game_live', args=[noted.pk])}?after=0&mode=append"
    pages = [reverse("game_detail", args=[noted.pk]), live]
    for path in pages:
        html = client.get(path).content.decode()
        assert SECRET not in html and "note-badge" not in html, path
    # The notes page is a seated member's own: Bob sees his (none), others a 404.
    notes = client.get(reverse("game_notes", args=[noted.pk]))
    if who in ("bob", "cat"):
        assert notes.status_code == 200 and SECRET not in notes.content.decode()
    else:
        assert notes.status_code in (302, 404)


def test_the_reveal_shows_a_note_only_once_shared(client, noted, cast_users, moderator):
    services.stalemate_declare(game=noted, by=moderator)
    reveal = reverse("game_reveal", args=[noted.pk])
    assert SECRET not in client.get(reverse("game_reveal", args=[noted.pk])).content.decode()
    # Kept after the game, and the author may share it then.
    assert PlayerNote.objects.filter(author=cast_users["ann"], seat__name="bob").exists()
    _save(client, noted, seat="bob", read="scum", text=SECRET, shared="on")
    client.logout()
    html = client.get(reveal).content.decode()
    assert SECRET in html and "<strong>Ann</strong> on <strong>Bob</strong>: scum read" in html


@pytest.mark.parametrize(
    "data, words",
    [
        ({"seat": "ann", "read": "town"}, "not on yourself"),
        ({"seat": "zed", "read": "town"}, "no such player"),
        ({"seat": "bob", "read": "wolfy"}, "choose town read"),
        ({"seat": "bob", "read": "town", "text": "x" * 2001}, "at most 2,000 characters"),
    ],
)
def test_a_bad_note_is_refused_in_words_and_changes_nothing(
    client, cast_game, cast_users, data, words
):
    client.force_login(cast_users["ann"])
    response = _save(client, cast_game, **data)
    follow = client.get(response["Location"]).content.decode()
    assert words in follow.replace("&#x27;", "'").lower()
    assert not PlayerNote.objects.exists()


def test_a_non_player_cannot_write_a_note_and_an_empty_note_is_deleted(
    client, noted, cast_users, moderator
):
    client.force_login(moderator)
    assert _save(client, noted, seat="bob", read="town").status_code == 404
    assert PlayerNote.objects.get().read == "scum"
    client.force_login(cast_users["ann"])
    _save(client, noted, seat="bob", read="", text="  ")
    assert not PlayerNote.objects.exists()
    assert client.get(reverse("game_note_save", args=[noted.pk])).status_code == 405
