"""The final reveal's words (issue 31's rough edges): the result of every seat in words,
the winner "on" a day, and the note that ties a replaced seat's last player to the seat the
deal text names (W-72)."""

import re

import pytest
from django.urls import reverse

from games import services
from tests.factories import UserFactory
from tests.games.test_views import _play_to_the_end

pytestmark = pytest.mark.django_db


def _rows(html):
    """Each card row's cells, as text."""
    body = html.split('class="game-table reveal-table"', 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)[1:]  # after the head's
    return [[re.sub(r"<[^>]+>|\s+", " ", c).strip() for c in re.findall(
        r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]  # fmt: skip


def test_the_reveal_says_who_lost_and_when_the_game_was_won(client, cast_game, cast_users):
    services.player_replace(
        game=cast_game, seat_name="eve", new_user=UserFactory(player_name="Newbie"),
        by=cast_game.host,
    )  # fmt: skip
    users = {**cast_users, "eve": cast_game.seats.get(name="eve").user}
    game = _play_to_the_end(cast_game, users)
    html = client.get(reverse("game_reveal", args=[game.pk])).content.decode()
    assert "The Village won on Day 2." in html
    rows = {row[0].split()[0]: row for row in _rows(html)}
    assert rows["Bob"][-1] == "Lost" and rows["Hal"][-1] == "Lost"  # the Coven
    assert rows["Ann"][-1] == "Winner"
    # Newbie sits in the seat the deal text calls "eve", where Eve sat first.
    assert "seat “eve” in the deal text; replaced Eve" in rows["Newbie"][0]
    assert "replaced" not in rows["Ann"][0]
