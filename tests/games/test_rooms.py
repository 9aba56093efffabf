"""Meetings, the afterlife and the moderator's acts with the named cast."""

import pytest

from games import services
from games.engine import GameRuleError
from games.mapping import engine_state
from games.models import Game, Post, Seat
from games.permissions import rooms_for
from tests.factories import UserFactory
from tests.games import said


def _rooms(game, name):
    game.refresh_from_db()
    return rooms_for(game, Seat.objects.get(game=game, name=name))


def _lynch(game, users, target, voters=("ann", "cat", "dan", "eve", "fay")):
    for voter in voters:
        services.vote_cast(game=game, user=users[voter], target=target)
    game.refresh_from_db()


def test_rooms_follow_the_groups_at_day_1(cast_game):
    assert _rooms(cast_game, "bob") == ["coven"]
    assert _rooms(cast_game, "hal") == ["juniors"]  # the sleeper Junior is not in the Coven
    assert _rooms(cast_game, "cat") == ["spies"]
    assert _rooms(cast_game, "fay") == ["lovers-1"] and _rooms(cast_game, "gus") == ["lovers-1"]
    assert _rooms(cast_game, "ann") == [] and _rooms(cast_game, "dan") == []


def test_room_post_only_for_members(cast_game, cast_users):
    post = services.room_post(
        game=cast_game, user=cast_users["bob"], room="coven", body="Kill **Eve** tonight"
    )
    assert post.thread == "coven" and post.number == 1 and "<strong>" in post.body_html
    for intruder, room in (
        ("ann", "coven"),
        ("hal", "coven"),
        ("bob", "juniors"),
        ("dan", "afterlife"),
        ("cat", "lovers-1"),
    ):
        with pytest.raises(GameRuleError, match="cannot post in that room"):
            services.room_post(game=cast_game, user=cast_users[intruder], room=room, body="hello")
    assert Post.objects.filter(game=cast_game).exclude(kind="system").count() == 1


def test_the_dead_lose_their_meeting_and_enter_the_afterlife(cast_game, cast_users):
    _lynch(cast_game, cast_users, "bob")
    assert _rooms(cast_game, "bob") == ["afterlife"]
    # No Elder lives: the Junior joins the Coven as Night 1 begins (W-26).
    assert _rooms(cast_game, "hal") == ["coven"]
    services.room_post(game=cast_game, user=cast_users["bob"], room="afterlife", body="boo")
    with pytest.raises(GameRuleError):
        services.room_post(
            game=cast_game, user=cast_users["ann"], room="afterlife", body="can I come in?"
        )


def test_replacement_takes_the_seat_its_rooms_and_history(cast_game, cast_users, moderator):
    newcomer = UserFactory(player_name="Newcomer")
    services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="hi")
    services.player_replace(game=cast_game, seat_name="bob", new_user=newcomer, by=moderator)
    assert _rooms(cast_game, "bob") == ["coven"]
    seat = Seat.objects.get(game=cast_game, name="bob")
    assert seat.user == newcomer and seat.posts.count() == 1  # the history stays
    services.vote_cast(game=cast_game, user=newcomer, target="ann")
    with pytest.raises(GameRuleError, match="not playing"):
        services.vote_cast(game=cast_game, user=cast_users["bob"], target="ann")
    with pytest.raises(GameRuleError, match="cannot post"):
        services.room_post(game=cast_game, user=cast_users["bob"], room="coven", body="x")
    notice = Post.objects.get(game=cast_game, kind="moderator")
    assert said.text(notice) == "Newcomer replaces Bob."


def test_replace_refuses_a_seated_user_and_non_moderators(cast_game, cast_users, moderator):
    with pytest.raises(GameRuleError, match="already has a seat"):
        services.player_replace(
            game=cast_game, seat_name="bob", new_user=cast_users["ann"], by=moderator
        )
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        services.player_replace(
            game=cast_game, seat_name="bob", new_user=UserFactory(), by=cast_users["ann"]
        )


def test_removed_player_has_no_room_and_no_afterlife(cast_game, moderator):
    services.player_remove(game=cast_game, seat_name="cat", by=moderator)
    assert _rooms(cast_game, "cat") == []
    state = engine_state(cast_game)
    assert state.seat("cat").status == "removed"


def test_stalemate_ends_the_game_for_the_witches(cast_game, moderator):
    services.stalemate_declare(game=cast_game, by=moderator)
    cast_game.refresh_from_db()
    assert cast_game.status == Game.Status.FINISHED and cast_game.winner == "witches"
    assert _rooms(cast_game, "bob") == []


def test_announcement_is_the_moderators(cast_game, cast_users, moderator):
    post = services.announcement_post(game=cast_game, by=moderator, body="Deadline moved.")
    assert post.kind == Post.Kind.MODERATOR and post.author == moderator
    with pytest.raises(GameRuleError, match="moderator"):
        services.announcement_post(game=cast_game, by=cast_users["ann"], body="I am mod")
