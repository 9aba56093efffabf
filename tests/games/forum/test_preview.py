"""Issue 31: a post's preview shows it as it would be posted (the same Markdown, sanitiser
and mentions), writes nothing, keeps the text in the box, and refuses what posting would
refuse in the same words; in the public thread and in a room."""

import pytest
from django.urls import reverse

from games import services
from games.models import Post
from games.selectors import room_ref

pytestmark = pytest.mark.django_db

TEXT = "**Bold** claim, @Bob: <script>alert(1)</script>"


def _preview(client, user, url, body=TEXT, **extra):
    client.force_login(user)
    before = Post.objects.count()
    response = client.post(url, {"body": body, "preview": "1", **extra})
    assert Post.objects.count() == before  # nothing stored
    assert response.status_code == 302  # to the thread, as a refused post: a reload is safe
    response = client.get(response["Location"])
    assert response.status_code == 200
    return response.content.decode()


def _shown(html):
    start = html.index('class="post-preview"')
    return html[start : html.index("</section>", start)]


def test_a_preview_shows_the_post_as_posted_and_stores_nothing(client, cast_game, cast_users):
    html = _preview(client, cast_users["ann"], reverse("game_post", args=[cast_game.pk]))
    shown = _shown(html)
    assert "<strong>Bold</strong>" in shown
    assert "<script>" not in shown  # the same sanitiser
    assert '#player-bob">@Bob</a>' in shown  # the mention linked
    # The text stays in the box, as typed.
    assert "**Bold** claim, @Bob: &lt;script&gt;alert(1)&lt;/script&gt;</textarea>" in html
    posted = services.post_create(game=cast_game, user=cast_users["ann"], body=TEXT)
    assert posted.body_html in shown  # exactly what posting stores


def test_a_preview_refuses_what_posting_refuses(client, cast_game, cast_users, moderator):
    services.phase_advance(game=cast_game, by=moderator)  # night 1
    html = _preview(client, cast_users["ann"], reverse("game_post", args=[cast_game.pk]))
    assert "Nobody posts in the public thread at night" in html
    assert 'class="post-preview"' not in html
    html = _preview(client, cast_users["ann"], reverse("game_post", args=[cast_game.pk]), "  ")
    assert 'class="post-preview"' not in html


def test_a_preview_of_a_reply_to_a_missing_post_is_refused(client, cast_game, cast_users):
    url = reverse("game_post", args=[cast_game.pk])
    html = _preview(client, cast_users["ann"], url, reply_to="999")
    assert "There is no post #999 to reply to" in html


def test_a_room_preview_stays_in_the_room(client, cast_game, cast_users):
    url = reverse("game_room_post", args=[cast_game.pk, room_ref(cast_game, "coven")])
    html = _preview(client, cast_users["bob"], url, "Kill **Eve** tonight")
    assert "<strong>Eve</strong>" in _shown(html)
    assert not Post.objects.filter(thread="coven").exists()
