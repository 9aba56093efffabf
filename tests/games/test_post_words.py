"""Narration stored as meaning (games/narration/said.py): a site post keeps a kind and its
arguments and is worded when read, for each reader; posts written before keep reading the
same English once the data migration has read them back (migrations/0019)."""

import importlib
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import GameEvent, Post, Seat
from games.narration import said as said_module
from games.selectors.threads import post_said
from tests.games.conftest import T0

pytestmark = pytest.mark.django_db
recover = importlib.import_module("games.migrations.0019_post_words_data").words_recover


def _thread(client, game):
    """The posts of the public thread's first page as the page shows them."""
    html = client.get(reverse("game_detail", args=[game.pk]), {"page": 1}).content.decode()
    return re.search(r'<ol class="posts".*?</ol>', html, re.S).group(0)


def _played(game, users, moderator, traveller):
    """A day with a count and a lynch, the night, the clock's notices, a replacement."""
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=game, user=users[voter], target="hal")
    services.phase_advance(game=game, by=moderator)
    services.clock_pause(game=game, by=moderator)
    traveller.move_to(T0 + timedelta(hours=3))
    services.clock_resume(game=game, by=moderator)
    services.clock_extend(game=game, by=moderator, delta=timedelta(hours=2, minutes=30))
    services.phase_advance(game=game, by=moderator)


def _as_the_old_code_wrote(game) -> int:
    """Each site post's words stored in English as the code before meaning wrote them: the
    text and HTML in the body, no meaning."""
    n = 0
    with translation.override("en"):
        for post in Post.objects.filter(game=game).exclude(words={}):
            text, html = post_said(post)
            Post.objects.filter(pk=post.pk).update(body=text, body_html=html, words={})
            n += 1
    return n


def test_a_new_site_post_keeps_meaning_and_no_english(cast_game, cast_users, moderator, traveller):
    _played(cast_game, cast_users, moderator, traveller)
    site = Post.objects.filter(game=cast_game).exclude(kind=Post.Kind.PLAYER)
    assert site.exclude(words={}).count() >= 5  # the start, a summary, three clock notices
    assert not site.exclude(words={}).exclude(body="", body_html="").exists()
    summary = site.filter(words__kind="summary").order_by("number").first()
    assert summary.words["args"]["count"]["rows"] == [["hal", ["ann", "cat", "dan", "eve", "fay"]]]
    assert site.get(words__kind="clock_extended").words["args"]["delta"] == 9000


def test_the_same_post_reads_in_each_readers_language(
    client, cast_game, cast_users, moderator, traveller
):
    _played(cast_game, cast_users, moderator, traveller)
    post = Post.objects.get(game=cast_game, words__kind="clock_paused")
    english = "The moderator paused the clock with"
    assert english in post_said(post)[0]
    # Worded when read: a change in the sentence's words shows in the stored post at once.
    kept = said_module.KINDS["clock_paused"], said_module.SENTENCES["clock_paused"]
    said_module.sentence("clock_paused", "Die Spielleitung hat die Uhr angehalten (%(phase)s).")
    try:
        phase = post.words["args"]["phase"]
        assert post_said(post)[0] == f"Die Spielleitung hat die Uhr angehalten ({phase})."
        client.force_login(cast_users["ann"])
        assert "Die Spielleitung hat die Uhr angehalten" in _thread(client, cast_game)
    finally:
        said_module.register("clock_paused", kept[0])
        said_module.SENTENCES["clock_paused"] = kept[1]
    assert english in post_said(post)[0]


def test_old_posts_read_back_into_meaning_render_byte_identical_english(
    client, cast_game, cast_users, moderator, traveller
):
    _played(cast_game, cast_users, moderator, traveller)
    client.force_login(cast_users["ann"])
    before_page = _thread(client, cast_game)
    written = _as_the_old_code_wrote(cast_game)
    assert _thread(client, cast_game) == before_page  # the old rows read as the page did
    converted, kept = recover(Post, GameEvent, Seat)
    assert (converted, kept) == (written, 0)
    posts = Post.objects.filter(game=cast_game).exclude(kind=Post.Kind.PLAYER)
    assert posts.exclude(words={}).count() == written and not posts.exclude(body="").exists()
    assert _thread(client, cast_game) == before_page


def test_old_notices_as_they_were_stored_read_back_and_an_unknown_text_stays(
    cast_game, moderator
):
    """Rows written literally as the old code stored them (post_times.notice)."""
    old = {
        "moderator": (
            "The moderator extended day 1 by 2 h 30 min: it now ends Thu 05 Mar, 20:30 UTC.",
            '<p>The moderator extended day 1 by 2 h 30 min: it now ends <time datetime="'
            '2026-03-05T20:30:00Z">Thu 05 Mar, 20:30 UTC</time>.</p>',
        ),
        "system": (
            "A replacement is wanted for O'Neil.",
            '<p class="post__announcement">A replacement is wanted for O&#x27;Neil.</p>',
        ),
    }
    made = {}
    for n, (kind, (text, html)) in enumerate(old.items(), start=100):
        made[kind] = Post.objects.create(
            game=cast_game, number=n, kind=kind, body=text, body_html=html, phase="day 1"
        )
    odd = Post.objects.create(
        game=cast_game, number=200, kind="system", body="The clock struck thirteen.",
        body_html='<p class="post__announcement">The clock struck thirteen.</p>', phase="day 1",
    )  # fmt: skip
    mine = Post.objects.create(
        game=cast_game, number=201, kind="moderator", author=moderator, body="Play nice.",
        body_html="<p>Play nice.</p>", phase="day 1",
    )  # fmt: skip
    assert recover(Post, GameEvent, Seat) == (2, 1)
    for kind, (text, html) in old.items():
        post = Post.objects.get(pk=made[kind].pk)
        assert post.body == "" and post.words
        assert post_said(post) == (text, html)
    assert Post.objects.get(pk=made["moderator"].pk).words["args"]["delta"] == 9000
    for kept in (odd, mine):  # kept as written
        row = Post.objects.get(pk=kept.pk)
        assert (row.words, row.body, row.body_html) == ({}, kept.body, kept.body_html)


def test_a_search_finds_a_site_post_in_the_readers_words(
    client, cast_game, cast_users, moderator, traveller
):
    _played(cast_game, cast_users, moderator, traveller)
    client.force_login(cast_users["ann"])
    url = reverse("game_detail", args=[cast_game.pk])
    number = Post.objects.get(game=cast_game, words__kind="clock_paused").number
    found = client.get(url, {"q": "paused the clock"}).content.decode()
    assert f'id="p{number}"' in found
    assert f'id="p{number}"' not in client.get(url, {"q": "zebra"}).content.decode()
