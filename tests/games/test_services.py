"""Services with the named cast: every write locks, asks the engine, stores what it said."""

import json

import pytest

from games import services
from games.engine import GameRuleError, records
from games.mapping import engine_state, game_record, record_result
from games.models import Game, GameEvent, GameInput, Post, Vote


def test_game_start_deals_cards_in_seat_order(cast_game):
    seats = {s.name: s.assignment for s in cast_game.seats.select_related("assignment")}
    assert seats["ann"].character == "priest" and seats["bob"].type == "elder_witch"
    assert cast_game.status == Game.Status.RUNNING and cast_game.phase == "day 1"
    assert cast_game.lovers == [["fay", "gus"]]
    assert cast_game.deadline_at is not None


def test_vote_to_majority_lynches_at_once(cast_game, cast_users):
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="bob")
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1"
    assert Vote.objects.filter(game=cast_game).count() == 5
    state = engine_state(cast_game)
    assert not state.seat("bob").living
    lynch = GameEvent.objects.get(game=cast_game, kind="lynch")
    assert lynch.data == {"target": "bob"} and lynch.audience == "public"
    assert Post.objects.filter(game=cast_game, kind="system", event=lynch).exists()


def test_refused_vote_changes_nothing(cast_game, cast_users):
    before = (GameInput.objects.count(), GameEvent.objects.count(), cast_game.inputs_count)
    with pytest.raises(GameRuleError, match="nobody is not a living player|not a living"):
        services.vote_cast(game=cast_game, user=cast_users["ann"], target="nobody")
    with pytest.raises(GameRuleError, match="you have no vote to withdraw"):
        services.vote_withdraw(game=cast_game, user=cast_users["ann"])
    cast_game.refresh_from_db()
    assert (GameInput.objects.count(), GameEvent.objects.count(), cast_game.inputs_count) == before


def test_outsider_cannot_act(cast_game, moderator):
    with pytest.raises(GameRuleError, match="not playing in this game"):
        services.vote_cast(game=cast_game, user=moderator, target="bob")


def test_night_action_private_and_withdrawable(cast_game, cast_users):
    services.phase_advance(game=cast_game, by=cast_game.host)
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1" and cast_game.midnight_at is not None
    services.action_submit(
        game=cast_game, user=cast_users["ann"], action="ability", targets=["bob"]
    )
    services.action_withdraw(game=cast_game, user=cast_users["ann"], what="ability")
    with pytest.raises(GameRuleError, match="no ability to withdraw"):
        services.action_withdraw(game=cast_game, user=cast_users["ann"], what="ability")
    services.action_submit(
        game=cast_game, user=cast_users["ann"], action="ability", targets=["bob"]
    )
    services.action_submit(game=cast_game, user=cast_users["bob"], action="coven", target="dan")
    services.phase_advance(game=cast_game, by=cast_game.host)
    cast_game.refresh_from_db()
    assert cast_game.phase == "day 2"
    result = record_result(cast_game)
    assert result["log"][1]["deaths"] == ["dan"]
    info = GameEvent.objects.get(game=cast_game, kind="info", data__what="priest")
    assert list(info.recipients.values_list("name", flat=True)) == ["ann"]
    assert info.data["result"] is True


def test_played_game_equals_its_downloaded_record(cast_game, cast_users):
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="hal")
    services.action_submit(game=cast_game, user=cast_users["bob"], action="coven", target="eve")
    services.phase_advance(game=cast_game, by=cast_game.host)
    cast_game.refresh_from_db()
    record = game_record(cast_game)
    replayed, _ = records.play(json.dumps(record))
    assert replayed == record_result(cast_game)
    assert replayed["refused"] == []
    assert replayed["log"][0]["lynch"] == "hal"


def test_post_rules(cast_game, cast_users):
    post = services.post_create(
        game=cast_game, user=cast_users["ann"], body="I think **Bob** <script>x</script>"
    )
    assert "<strong>Bob</strong>" in post.body_html and "<script>" not in post.body_html
    reply = services.post_create(
        game=cast_game, user=cast_users["bob"], body="No!", reply_to=post.number
    )
    assert reply.reply_to == post and reply.number == post.number + 1
    services.phase_advance(game=cast_game, by=cast_game.host)
    with pytest.raises(GameRuleError, match="at night"):
        services.post_create(game=cast_game, user=cast_users["ann"], body="psst")


def test_only_the_moderator_advances(cast_game, cast_users):
    with pytest.raises(GameRuleError, match="moderator"):
        services.phase_advance(game=cast_game, by=cast_users["ann"])


def test_join_leave_and_start_checks(moderator, cast_users):
    from tests.games.conftest import make_game

    game = make_game(moderator, cast_users, start=False)
    with pytest.raises(GameRuleError, match="already joined"):
        services.game_join(game=game, user=cast_users["ann"])
    services.game_leave(game=game, user=cast_users["ann"])
    with pytest.raises(GameRuleError, match="1 of|7 of 8"):
        services.game_start(game=game, by=moderator)
    with pytest.raises(GameRuleError, match="only the game's moderator"):
        services.game_start(game=game, by=cast_users["bob"])


def test_create_refuses_a_bad_deal_with_every_problem(moderator):
    deal = {
        "mode": "explicit",
        "cards": [
            {"character": "priest", "type": "basic_villager"},
            {"character": "priest", "type": "elder_witch"},
            {"character": "judge", "type": "elder_witch"},
        ],
    }
    with pytest.raises(services.SetupProblems) as err:
        services.game_create(
            host=moderator, ruleset="witchhunt", title="x", seats_count=3, deal=deal
        )
    text = " ".join(err.value.problems)
    assert "dealt twice" in text and "Holy" in text and "fewer than Villagers" in text
