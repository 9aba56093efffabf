"""'Ask to be replaced' where a player looks (issue 31): the game page's own seat panel offers
it to a living player, through the role page's confirmation, and comes back to the game
page; never to the dead, the moderator, a watcher, or in an open or finished game."""

import pytest
from django.urls import reverse

from games import services
from games.models import Seat

pytestmark = pytest.mark.django_db


def _page(client, user, game):
    client.force_login(user)
    return client.get(reverse("game_detail", args=[game.pk]), follow=True).content.decode()


def test_a_living_player_asks_to_be_replaced_from_the_game_page(client, cast_game, cast_users):
    game_url = reverse("game_detail", args=[cast_game.pk])
    ask_url = reverse("game_leave_ask", args=[cast_game.pk])
    html = _page(client, cast_users["bob"], cast_game)
    assert f'href="{ask_url}?next={game_url}"' in html
    confirm = client.get(f"{ask_url}?next={game_url}").content.decode()
    assert "Ask to be replaced in The named cast?" in confirm
    assert f'name="next" value="{game_url}"' in confirm  # back to where the player asked
    response = client.post(ask_url, {"note": "Moving house", "next": game_url})
    assert response["Location"] == game_url
    assert Seat.objects.get(game=cast_game, name="bob").replacement_wanted_at is not None
    # Elsewhere than this game is never where it goes back to.
    response = client.post(ask_url, {"next": "https://evil.example/"})
    assert response["Location"] == reverse("game_role", args=[cast_game.pk])


def test_nobody_else_is_offered_it_on_the_game_page(client, cast_game, cast_users, moderator):
    ask_url = reverse("game_leave_ask", args=[cast_game.pk])
    for voter in ("ann", "cat", "eve", "fay", "gus"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="dan")  # Dan dies
    assert ask_url not in _page(client, cast_users["dan"], cast_game)
    assert ask_url not in _page(client, moderator, cast_game)
    assert ask_url in _page(client, cast_users["ann"], cast_game)
