"""The public thread's filters (selectors.threads.ThreadFilter): several players at once,
one day's posts, a search in the text; each pages by post number (after/before)."""

import re

import pytest
from django.urls import reverse

from games.models import Post
from tests.games.test_threads import _fill, _shown

pytestmark = pytest.mark.django_db


def _detail(game):
    return reverse("game_detail", args=[game.pk])


def _by(game, numbers):
    return {n: Post.objects.get(game=game, number=n).seat.name for n in numbers}


def test_several_players_at_once_page_by_post_number(client, cast_game, cast_users):
    numbers = _fill(cast_game, cast_users, 160, seats=["ann", "bob", "cat", "dan"])
    ann_bob = [n for n in numbers if _by(cast_game, [n])[n] in ("ann", "bob")]
    detail = _detail(cast_game)
    first = client.get(f"{detail}?only=ann&only=bob")
    assert _shown(first) == ann_bob[:50]
    assert "Showing only Ann’s and Bob’s posts." in first.content.decode()
    page_2 = client.get(f"{detail}?only=ann&only=bob&after={ann_bob[49]}")
    assert _shown(page_2) == ann_bob[50:80]
    html = page_2.content.decode()
    assert f'href="?only=ann&amp;only=bob&amp;before={ann_bob[50]}"' in html
    assert _shown(client.get(f"{detail}?only=ann&only=bob&page=last")) == ann_bob[-50:]
    # An unknown name is ignored, the known ones still filter.
    assert _shown(client.get(f"{detail}?only=ann&only=zed")) == [
        n for n in ann_bob if _by(cast_game, [n])[n] == "ann"
    ][:50]


def test_one_days_posts(client, cast_game, cast_users):
    day_1 = _fill(cast_game, cast_users, 5)
    Post.objects.filter(game=cast_game, number__in=day_1[:2]).update(phase="day 2")
    cast_game.phase = "day 2"  # the filter offers the days the game has reached
    cast_game.save(update_fields=["phase"])
    detail = _detail(cast_game)
    assert _shown(client.get(f"{detail}?day=2")) == day_1[:2]
    html = client.get(f"{detail}?day=2").content.decode()
    assert "Showing only posts of Day 2." in html and '<option value="2" selected>' in html
    one = _shown(client.get(f"{detail}?day=1"))
    assert day_1[2:] == [n for n in one if n in day_1] and not set(day_1[:2]) & set(one)
    # A day the game has not reached is no filter: the whole thread.
    assert day_1[0] in _shown(client.get(f"{detail}?day=9"))


def test_a_search_is_case_insensitive_bounded_and_paged(client, cast_game, cast_users):
    numbers = _fill(cast_game, cast_users, 120)
    wolf = numbers[::2]
    Post.objects.filter(game=cast_game, number__in=wolf).update(body="I smell a WOLF here")
    detail = _detail(cast_game)
    assert _shown(client.get(f"{detail}?q=wolf")) == wolf[:50]
    assert _shown(client.get(f"{detail}?q=wolf&after={wolf[49]}")) == wolf[50:]
    both = _shown(client.get(f"{detail}?q=wolf&only=bob"))
    bob = [n for n, s in _by(cast_game, wolf).items() if s == "bob"]
    assert both == bob and len(bob) == 15
    html = client.get(f"{detail}?q=wolf").content.decode()
    assert "containing “wolf”" in html and 'value="wolf"' in html
    # The words are cut to 100 characters: a longer search finds what its start finds.
    long = client.get(f"{detail}?q={'z' * 5000}")
    assert long.status_code == 200 and _shown(long) == []
    assert re.search(r'value="z{100}"', long.content.decode())
