"""Issue 13: the 1,115-step bench record (48 players) played through the services, every
input its own request, with the engine state cached without its event history. What the
game announced, its result and its downloadable record are those of the engine's own
replay of the record, byte for byte, and the cached state stays the size of a new one."""

import json
import pickle

import pytest
from django.core.cache import cache

from games.archive.selectors import record_json
from games.benchmarks.inputs import bench_record, check_played, play_record
from games.engine import records
from games.mapping import _key, engine_state, record_result, replay_mismatch
from games.models import GameEvent

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_a_long_game_through_the_services_is_the_engines_replay_byte_for_byte():
    record = bench_record()
    game, played = play_record(record)
    game.refresh_from_db()
    check_played(game, record, played)  # the same steps refused, the rest stored in order

    # The result, from the engine's replay of the record (what the cached state with its
    # history gave): refusals are not stored, so the game's own result lists none.
    ruleset, replayed, _, _ = records.replay(record)
    expected = records.dumps(records.result(ruleset, replayed, []))
    assert records.dumps(record_result(game)) == expected
    # The downloaded record replays to it too (play_record's path).
    downloaded = json.loads(record_json(game))
    assert downloaded["players"] == record["players"]
    assert records.dumps(records.play(record_json(game))[0]) == expected

    # Every event was stored at its index: the rows are the replay's events, in order.
    assert replay_mismatch(game) is None
    assert GameEvent.objects.filter(game=game).count() == len(replayed.events) > 1900

    # The cached state keeps no history (with it, some 170 KB here): loading and storing
    # it costs about the same on the last day as on the first.
    state = engine_state(game)
    assert len(state.events) == len(replayed.events)
    blob = cache.get(_key(game))
    full = pickle.dumps(replayed, protocol=pickle.HIGHEST_PROTOCOL)
    assert len(blob) < len(full) / 10, (len(blob), len(full))
