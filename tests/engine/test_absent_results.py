"""Rulings about a result that must NOT be given, which the conformance format cannot say
(it checks only that info entries are present)."""

import json

from games.engine import records


def _info(record):
    result, _ = records.play(json.dumps(record))
    return result["info"]


def test_gravedigger_learns_nothing_when_the_loose_cannon_dies_to_his_own_attempt():
    """W-36, W-38: the Loose Cannon names himself; his own attempt kills him, so the lynch
    attempt does nothing: no lynch killed a player, and the Gravedigger is told nothing."""
    players = [
        {"name": "lc", "character": "loose_cannon", "type": "basic_villager"},
        {"name": "gd", "character": "gravedigger", "type": "basic_villager"},
        {"name": "w", "character": "judge", "type": "elder_witch"},
        {"name": "a", "character": "oracle", "type": "basic_villager"},
        {"name": "b", "character": "zealot", "type": "basic_villager"},
    ]
    steps = [{"actor": "lc", "action": "ability", "targets": ["lc"]}]
    info = _info({"ruleset": "witchhunt", "seed": 1, "players": players, "steps": steps})
    assert [i for i in info if i["what"] == "gravedigger"] == []
    # ... while a lynch that kills is reported (the same cast, the town lynches lc).
    steps = [{"actor": n, "action": "vote", "target": "lc"} for n in ("gd", "a", "b")]
    info = _info({"ruleset": "witchhunt", "seed": 1, "players": players, "steps": steps})
    assert [i["about"] for i in info if i["what"] == "gravedigger"] == ["lc"]
