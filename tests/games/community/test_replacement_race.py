"""A replaced player can no longer act for the seat (the Hardening review, finding 4).

The services find the actor's seat under the game row lock (services.base.seat_of,
services.play.seat_input_apply), the lock a replacement takes too: so a vote, an action or
a post by the old player that arrives while the seat changes hands is refused, and nothing
is stored. Three ways to show it: after the replacement; with the replacement landing
between the request's arrival and the lock (any database); and with two real threads on
PostgreSQL, where the old player's vote waits on the replacement's lock.
"""

import threading

import pytest
from django.db import connection, connections, transaction

from games import services
from games.engine import GameRuleError
from games.models import Game, GameInput, Post
from games.services import play, posts
from tests.factories import UserFactory
from tests.games.conftest import make_game

NOT_PLAYING = "you are not playing in this game"

# What the old player (Bob: the Judge, an Elder Witch, in the Coven on Day 1) tries.
ACTS = {
    "vote": lambda game, user: services.vote_cast(game=game, user=user, target="ann"),
    "ability": lambda game, user: services.action_submit(
        game=game, user=user, action="ability", targets=["ann"]
    ),
    "post": lambda game, user: services.post_create(game=game, user=user, body="Still me."),
    "room post": lambda game, user: services.room_post(
        game=game, user=user, room="coven", body="Still me."
    ),
}
REFUSALS = {
    "vote": NOT_PLAYING,
    "ability": NOT_PLAYING,
    "post": NOT_PLAYING,
    "room post": "you cannot post in that room",
}


def _stored(game):
    return (
        GameInput.objects.filter(game=game).count(),
        list(GameInput.objects.filter(game=game, by__player_name="Bob").values_list("step")),
        Post.objects.filter(game=game, author__player_name="Bob").count(),
    )


def _replace_bob(game, moderator, newby):
    return services.player_replace(
        game=Game.objects.get(pk=game.pk), seat_name="bob", new_user=newby, by=moderator
    )


# --- after the replacement -----------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("act", list(ACTS))
def test_the_replaced_player_is_refused_every_act_and_nothing_is_stored(
    cast_game, cast_users, moderator, act
):
    bob = cast_users["bob"]
    ACTS[act](cast_game, bob)  # before the replacement, Bob may
    newby = UserFactory(player_name="Newby")
    _replace_bob(cast_game, moderator, newby)
    before = _stored(cast_game)
    with pytest.raises(GameRuleError) as refusal:
        ACTS[act](Game.objects.get(pk=cast_game.pk), bob)
    assert str(refusal.value) == REFUSALS[act]
    assert _stored(cast_game) == before
    ACTS[act](Game.objects.get(pk=cast_game.pk), newby)  # the seat is the newcomer's now


# --- the replacement lands while the request is on its way to the lock ---------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("act", ["vote", "ability", "post"])
def test_a_replacement_landing_before_the_lock_refuses_the_old_players_act(
    monkeypatch, cast_game, cast_users, moderator, act
):
    """The replacement runs just before the service takes the game row lock, as a rival
    request holding the lock would have committed it: the seat must be found after."""
    bob, newby = cast_users["bob"], UserFactory(player_name="Newby")
    module = posts if act == "post" else play
    take_lock = module.game_locked

    def replaced_then_locked(game):
        if Game.objects.get(pk=game.pk).seats.get(name="bob").user_id == bob.pk:
            _replace_bob(game, moderator, newby)
        return take_lock(game)

    monkeypatch.setattr(module, "game_locked", replaced_then_locked)
    before = _stored(cast_game)
    with pytest.raises(GameRuleError) as refusal:
        ACTS[act](Game.objects.get(pk=cast_game.pk), bob)
    assert str(refusal.value) == NOT_PLAYING
    # The refused transaction stored nothing (the replacement inside it rolled back too).
    assert _stored(cast_game) == before


# --- under real concurrency (PostgreSQL row locks) -----------------------------------------------
def _wait_until_someone_waits_on_my_lock(timeout=10.0):
    """Poll until another backend is blocked by this connection's locks."""
    with connection.cursor() as cursor:
        for _ in range(int(timeout / 0.02)):
            # pg_locks is live (pg_stat_activity is a snapshot inside a transaction).
            cursor.execute(
                "SELECT count(*) FROM pg_locks "
                "WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
            )
            if cursor.fetchone()[0]:
                return True
            threading.Event().wait(0.02)
    return False


@pytest.mark.slow
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL: set DATABASE_URL to a PostgreSQL database",
)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("act", ["vote", "ability", "post"])
def test_the_old_players_act_waiting_on_the_replacement_is_refused(moderator, cast_users, act):
    """The replacement holds the game row lock (not yet committed) while the old player's
    request arrives; the request waits for the lock, then finds the seat is not theirs."""
    game = make_game(moderator, cast_users)
    bob, newby = cast_users["bob"], UserFactory(player_name="Newby")
    before = _stored(game)
    locked = threading.Event()
    outcome = {}

    def replacement():
        try:
            with transaction.atomic():
                _replace_bob(game, moderator, newby)
                locked.set()
                outcome["waited"] = _wait_until_someone_waits_on_my_lock()
        except Exception as e:  # noqa: BLE001 - reported below
            outcome["replacement"] = e
        finally:
            locked.set()
            connections.close_all()

    def old_player():
        try:
            assert locked.wait(timeout=10)
            ACTS[act](Game.objects.get(pk=game.pk), bob)
        except Exception as e:  # noqa: BLE001 - the refusal is the point
            outcome["act"] = e
        else:
            outcome["act"] = None
        finally:
            connections.close_all()

    threads = [threading.Thread(target=replacement), threading.Thread(target=old_player)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert "replacement" not in outcome, outcome
    assert outcome["waited"], "the old player's request never waited on the replacement's lock"
    assert isinstance(outcome["act"], GameRuleError) and str(outcome["act"]) == NOT_PLAYING, outcome
    assert Game.objects.get(pk=game.pk).seats.get(name="bob").user == newby
    inputs, bobs_inputs, bobs_posts = _stored(game)
    assert inputs == before[0] + 1  # the replacement's input only
    assert (bobs_inputs, bobs_posts) == ([], 0)
