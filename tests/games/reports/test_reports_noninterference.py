"""Non-interference for reports and ignores (tests/games/noninterference.py): twin games
that differ only in hidden acts (Ann ignores Bob from his public post and Hal ignores him
from his Coven post; Ann reports Bob's post, Hal reports it too, and the moderator
dismisses Ann's report) serve byte-identical pages, headers and emails to everyone else:
Bob, whom they ignore and report, another player, a visitor and a member outside the game,
each reading the game's pages, the posts' "Report or ignore" pages, their own reports and
their profile, and every link one level deep."""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.reports import services as reports
from games.selectors import room_ref
from tests.games.conftest import make_game
from tests.games.noninterference import differences, twins
from tests.games.test_noninterference import CAST, _refresh, _users

pytestmark = pytest.mark.django_db

VIEWERS = ("anonymous", "outsider", "bob", "cat", "dan")


def _story(extra):
    def story(hidden):
        u = _users(CAST)
        game = make_game(u["mod"], u, cast=CAST, options={"public_setup": False})
        bob = services.post_create(game=game, user=u["bob"], body="Bob-public-1")
        coven = services.room_post(game=_refresh(game), user=u["bob"], room="coven", body="Bc-1")
        services.post_create(game=_refresh(game), user=u["cat"], body="Cat-public-1")
        ref = room_ref(game, "coven")
        extra[:] = [
            reverse("post_about", args=[game.pk, "public", bob.number]),
            reverse("post_about", args=[game.pk, ref, coven.number]),
            reverse("my_reports"),
            reverse("profile"),
        ]
        if hidden:
            reports.ignore_from_post(post=bob, user=u["ann"])
            reports.ignore_from_post(post=coven, user=u["hal"])
            made = reports.report_make(
                game=_refresh(game), thread="public", number=bob.number, user=u["ann"],
                reason="abuse", note="Rude.",
            )  # fmt: skip
            reports.report_make(
                game=_refresh(game), thread="coven", number=coven.number, user=u["hal"],
                reason="outside",
            )  # fmt: skip
            reports.report_settle(game=_refresh(game), pk=made.pk, by=u["mod"], outcome="dismissed")
        # Those who ignore read first in both twins: a page made for them must stay theirs
        # (the game page's cached parts: views/fragments.py OWN_SLOTS).
        for name, url in (("ann", reverse("game_detail", args=[game.pk])),
                          ("hal", reverse("game_room", args=[game.pk, ref]))):  # fmt: skip
            client = Client()
            client.force_login(u[name])
            assert client.get(url, follow=True).status_code == 200
        yield "day 1", _refresh(game), u
        services.post_create(game=_refresh(game), user=u["bob"], body="Bob-public-2")
        yield "later", _refresh(game), u

    return story


def test_reports_and_ignores_change_no_byte_for_anyone_else():
    extra = []
    first, second = twins(_story(extra), VIEWERS, extra=extra)
    assert first and not differences(first, second), differences(first, second)[:5]
    # The extra pages were read: Bob's posts' pages and his reports page answered him.
    bob = first[("day 1", "bob")]
    assert any("/posts/public/" in url and answer[0] == 200 for url, answer in bob.items())
    assert any(url == reverse("my_reports") and answer[0] == 200 for url, answer in bob.items())
