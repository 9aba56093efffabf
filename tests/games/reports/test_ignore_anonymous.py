"""Ignore in an anonymous game (games/anonymous): ignoring from a post there is that seat's
in that game, shown by its alias and game ("Fern in Behind the trees"), never by the
member behind it; and a member ignored elsewhere is not folded under an alias (the fold
would tie the alias to them)."""

import pytest
from django.urls import reverse

from games import services
from games.models import Ignore, Post
from tests.games.afterlife_cast import page_text
from tests.games.reports.test_ignore import _folded, _html, _ignore

story = pytest.importorskip("tests.games.anonymous.story")  # with anonymous games merged

pytestmark = pytest.mark.django_db


def test_an_ignore_from_an_anonymous_game_names_the_alias_and_never_the_member(client, moderator):
    users = story.anon_users()
    ann, bob = users["annqx"], users["bobqx"]  # Elm and Fern
    game = services.game_start(game=story.anon_open(moderator, users), by=moderator)
    fern = services.post_create(game=game, user=bob, body="Fern-says-1")
    detail = reverse("game_detail", args=[game.pk])
    # Bob ignored as a member (from another game): no fold under his alias here.
    elsewhere = Ignore.objects.create(owner=ann, member=bob)
    assert _folded(_html(client, ann, detail)) == []
    about = _html(client, ann, reverse("post_about", args=[game.pk, "public", fern.number]))
    assert f"Post #{fern.number} by Fern" in page_text(about) and "Bobqx" not in about
    elsewhere.delete()
    _ignore(client, ann, game, fern.number)
    ignore = Ignore.objects.get(owner=ann)
    assert ignore.member_id is None and ignore.seat.alias == "Fern"
    html = _html(client, ann, detail)
    assert _folded(html) == [(fern.number, "Fern")] and "Bobqx" not in html
    profile = _html(client, ann, reverse("profile"))
    listed = page_text(profile.split('id="ignored-title"')[1])
    assert "Fern in Behind the trees" in listed and "Bobqx" not in profile
    assert Post.objects.get(pk=fern.pk).author_id == bob.pk  # the row knows; no page says
