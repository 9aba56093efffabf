"""options_for: what a seat may do now, as the engine's own check decides it."""
from games.engine import apply, new_game
from games.engine.options import options_for


def _werewolf(*roles):
    players = [{"name": f"p{i}", "role": r} for i, r in enumerate(roles)]
    game, _ = new_game({"ruleset": "werewolf", "seed": 1, "players": players})
    return game


def _actions(game, name):
    return {o.action: o for o in options_for(game, name)}


def test_witch_without_a_victim_may_still_poison():
    game = _werewolf("werewolf", "witch", "villager", "villager")
    apply(game, {"advance": "phase"})
    apply(game, {"advance": "midnight"})
    option = _actions(game, "p1")["ability"]
    assert option.choices == ["heal", "poison"] and option.hi == 1


def test_day_vote_targets_are_exactly_the_living():
    game = _werewolf("werewolf", "seer", "villager", "villager", "villager")
    for voter in ("p1", "p2", "p3"):
        apply(game, {"actor": voter, "action": "vote", "target": "p4"})
    apply(game, {"advance": "phase"})  # night 1, then morning
    vote = _actions(game, "p0")["vote"]
    assert vote.targets == ["p0", "p1", "p2", "p3"]
    assert _actions(game, "p4") == {}  # the dead do nothing in Werewolf


def test_pack_may_not_target_a_werewolf_and_villager_has_nothing_at_night():
    game = _werewolf("werewolf", "werewolf", "villager", "villager", "villager", "seer")
    apply(game, {"advance": "phase"})
    assert _actions(game, "p0")["pack"].targets == ["p2", "p3", "p4", "p5"]
    assert _actions(game, "p2") == {}


def test_an_angel_may_protect_at_night():
    players = [{"name": "w", "character": "judge", "type": "elder_witch"}] + [
        {"name": n, "character": c, "type": "basic_villager"}
        for n, c in (("a", "oracle"), ("b", "zealot"), ("c", "templar"), ("d", "cupid"))]
    game, _ = new_game({"ruleset": "witchhunt", "seed": 1, "players": players})
    for voter in ("b", "c", "d"):
        apply(game, {"actor": voter, "action": "vote", "target": "a"})
    assert game.night
    assert _actions(game, "a")["protect"].targets == ["w", "b", "c", "d"]
    assert "protect" not in _actions(game, "b")
