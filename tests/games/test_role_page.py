"""The role page as a player reads it: powers that open later are announced ahead, the dead
are told what they still do, and every accepted action says what it did."""

import pytest

from games import services
from games.models import Game
from tests.games.conftest import make_game
from tests.games.test_views import _messages, _text, url

pytestmark = pytest.mark.django_db

WEREWOLF = [("Ann", "werewolf", ""), ("Bob", "witch", ""), ("Cat", "villager", ""),
            ("Dan", "villager", ""), ("Eve", "villager", "")]  # fmt: skip


def _role(client, user, game):
    client.force_login(user)
    return _text(client.get(url("game_role", game))).replace("'", "’")


def test_the_witch_is_told_before_midnight_what_she_may_do_after_it(
    client, moderator, cast_users
):
    game = make_game(moderator, cast_users, cast=WEREWOLF, ruleset="werewolf")
    by_day = _role(client, cast_users["bob"], game)
    assert "Heal the pack’s victim, or poison a player" in by_day
    # Not from nightfall: from tonight's midnight, half a night after the day's deadline
    # (WW-5; the named cast's Werewolf nights are 24 h: 12 h after it).
    game.refresh_from_db()
    midnight = (game.deadline_at + game.night_length / 2).strftime("%H:%M")
    assert "Tonight, after midnight (halfway through the night:" in by_day
    assert f"{midnight} UTC if the day runs to its deadline)" in by_day
    assert "Tonight (from" not in by_day
    services.phase_advance(game=game, by=moderator)
    game.refresh_from_db()
    text = _role(client, cast_users["bob"], game)
    assert "After midnight" in text and "Heal the pack’s victim, or poison a player" in text
    assert "Nothing right now" not in text and "Nothing more tonight" not in text
    # When, in the reader's zone: the midnight checkpoint's time is on the page.
    assert game.midnight_at is not None
    services.midnight_pass(game=game)
    text = _role(client, cast_users["bob"], game)
    assert "After midnight" not in text  # the form itself is there now
    assert "Choice" in text and "Poison a player" in text


def test_a_villager_is_told_plainly_that_nothing_opens(client, moderator, cast_users):
    game = make_game(moderator, cast_users, cast=WEREWOLF, ruleset="werewolf")
    services.phase_advance(game=game, by=moderator)
    text = _role(client, cast_users["cat"], game)
    assert "Nothing more tonight" in text and "After midnight" not in text


def test_an_angel_is_told_she_acts_at_night_not_in_the_morning(client, cast_game, cast_users):
    # Dan (a Villager) is lynched on day 1: an Angel (W-17).
    for voter in ("ann", "bob", "cat", "eve", "fay"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="dan")
    cast_game.refresh_from_db()
    assert cast_game.is_night
    services.midnight_pass(game=cast_game)
    services.action_submit(game=cast_game, user=cast_users["dan"], action="protect", target="ann")
    text = _role(client, cast_users["dan"], cast_game)
    assert "in the morning" not in text
    services.phase_advance(game=cast_game, by=cast_game.host)  # day 2
    text = _role(client, cast_users["dan"], cast_game)
    assert "Tonight" in text and "Protect (the Angels’ vote)" in text
    assert "in the morning" not in text


def test_accepted_actions_say_what_they_did(client, cast_game, cast_users):
    client.force_login(cast_users["ann"])
    response = client.post(url("game_vote", cast_game), {"target": "dan"}, follow=True)
    assert _messages(response) == ["Your vote is now on Dan."]
    services.phase_advance(game=cast_game, by=cast_game.host)
    client.force_login(cast_users["bob"])  # the Elder Witch
    response = client.post(
        url("game_act", cast_game), {"action": "coven", "target": "eve"}, follow=True
    )
    assert _messages(response) == ["Your Coven vote is now on Eve."]
    response = client.post(url("game_withdraw", cast_game), {"what": "coven"}, follow=True)
    assert _messages(response) == ["You withdrew your Coven vote."]
    assert not any("no one named" in m for m in _messages(response))
    assert Game.objects.get(pk=cast_game.pk).is_night
