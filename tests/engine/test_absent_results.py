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


def _medic_with_the_minstrel(revision):
    """W-57: the Minstrel chooses the Medic, whose two targets both count; t2 is removed
    before Night 3's deadline."""
    players = [
        {"name": "med", "character": "traveling_medic", "type": "basic_villager"},
        {"name": "min", "character": "traveling_minstrel", "type": "basic_villager"},
        {"name": "t2", "character": "oracle", "type": "basic_villager"},
        {"name": "a", "character": "innkeeper", "type": "basic_villager"},
        {"name": "b", "character": "zealot", "type": "basic_villager"},
        {"name": "c", "character": "inquisitor", "type": "basic_villager"},
        {"name": "w1", "character": "judge", "type": "elder_witch"},
        {"name": "w2", "character": "wizard", "type": "elder_witch"},
    ]
    steps = [{"advance": "phase"}] * 5 + [
        {"actor": "min", "action": "ability", "targets": ["med"]},
        {"actor": "med", "action": "ability", "targets": ["a", "t2"]},
        {"moderator": "remove", "player": "t2"},
        {"advance": "phase"},
    ]
    record = {"ruleset": "witchhunt", "revision": revision, "seed": 1, "players": players,
              "options": {"stalemate_cycles": 0}, "steps": steps}  # fmt: skip
    result, _ = records.play(json.dumps(record))
    told = [(i["about"], i["result"]) for i in result["info"] if i["what"] == "traveling_medic"]
    return told, result["final"]["extra_lives"]["a"]


def test_the_medics_removed_second_target_is_never_told_of_w8a():
    """W-8a, W-76: under revision 3 the removed t2 lapses alone: the Medic is told of a,
    who gains the life, and of t2 nothing; under revision 2b the two lapse whole, and the
    Medic is told of neither."""
    assert _medic_with_the_minstrel("3") == ([("a", True)], 1)
    assert _medic_with_the_minstrel("2b") == ([], 0)
