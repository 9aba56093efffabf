"""A rules revision never rewrites what a stored game announced: the replay check finds
every started game whose replay under today's rules differs from its stored events."""

import importlib

import pytest
from django.core.management import call_command

from games import services
from games.mapping import replay_mismatch
from games.models import GameEvent
from games.selectors.replays import stored_games_that_differ
from tests.games.conftest import make_game


def _play_a_day_and_a_night(game, users, moderator):
    for voter in ("ann", "bob", "cat", "dan", "eve"):
        services.vote_cast(game=game, user=users[voter], target="hal")
    services.phase_advance(game=game, by=moderator)
    services.phase_advance(game=game, by=moderator)


def test_a_game_played_through_the_services_replays_to_its_stored_events(
    cast_game, cast_users, moderator
):
    _play_a_day_and_a_night(cast_game, cast_users, moderator)
    assert replay_mismatch(cast_game) is None
    assert stored_games_that_differ() == []
    call_command("replay_check")  # exits 0


def test_a_stored_event_that_the_rules_would_now_tell_differently_is_reported(
    cast_game, cast_users, moderator
):
    _play_a_day_and_a_night(cast_game, cast_users, moderator)
    row = GameEvent.objects.filter(game=cast_game, kind="lynch").get()
    row.data = {**row.data, "target": "ann"}  # as if an older rule had lynched another
    row.save(update_fields=["data"])
    assert replay_mismatch(cast_game) == f"event {row.index} (lynch, {row.phase}) differs"
    assert [pk for pk, _, _ in stored_games_that_differ()] == [cast_game.pk]
    with pytest.raises(SystemExit) as exit_:
        call_command("replay_check")
    assert exit_.value.code == 1


def test_an_event_the_rules_no_longer_make_is_reported(cast_game, cast_users, moderator):
    _play_a_day_and_a_night(cast_game, cast_users, moderator)
    stored = GameEvent.objects.filter(game=cast_game).count()
    last = GameEvent.objects.filter(game=cast_game).order_by("-index").first()
    GameEvent.objects.create(
        game=cast_game, index=last.index + 1, kind="public", phase=last.phase,
        audience=GameEvent.Audience.PUBLIC, data={"event": "spies_dead"},
    )  # fmt: skip
    expected = f"the replay has {stored} events where {stored + 1} were stored"
    assert replay_mismatch(cast_game) == expected


def test_open_games_are_not_checked(moderator, cast_users):
    make_game(moderator, cast_users, start=False)
    assert stored_games_that_differ() == []


def test_the_revision_migration_refuses_while_a_stored_game_differs(
    cast_game, cast_users, moderator
):
    from django.apps import apps

    migration = importlib.import_module("games.migrations.0004_rulings_revision_2")
    _play_a_day_and_a_night(cast_game, cast_users, moderator)
    migration.check_stored_games(apps, None)  # every game replays as it announced
    GameEvent.objects.filter(game=cast_game, kind="lynch").update(data={"target": "ann"})
    with pytest.raises(RuntimeError, match=f"game {cast_game.pk} "):
        migration.check_stored_games(apps, None)
