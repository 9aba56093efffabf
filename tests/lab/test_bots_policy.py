"""The bots follow the policies docs/lab.md writes down."""

import random

from games.engine import new_game
from games.engine.inputs import Input
from games.lab.simulation import play
from games.lab.simulation.bots import Bot
from games.lab.simulation.setups import suggested
from games.lab.simulation.town import Town
from games.lab.simulation.view import Board


def explicit(cards):
    names = [f"p{i:02d}" for i in range(len(cards))]
    players = [{"name": n, **c} for n, c in zip(names, cards, strict=True)]
    return {"ruleset": "witchhunt", "seed": 3, "options": {}, "players": players, "lovers": []}


def bots_for(game, seed=0):
    board = Board(game)
    board.sync()
    town = Town(board.public)
    rng = random.Random(seed)
    return board, {n: Bot(v, rng, town) for n, v in board.views.items()}


def test_a_priest_votes_the_coven_member_he_found():
    record = explicit(
        [
            {"character": "priest", "type": "holy_villager"},
            {"character": "judge", "type": "elder_witch"},
            {"character": "gambler", "type": "basic_villager"},
            {"character": "recluse", "type": "basic_villager"},
            {"character": "survivalist", "type": "basic_villager"},
            {"character": "fanatic", "type": "basic_villager"},
        ]
    )
    game, _ = new_game(record)
    board, bots = bots_for(game)
    game.apply(Input("action", "p02", "vote", "p03"))  # a wagon he should not follow
    game.apply(play.DEADLINE)  # no lynch: night 1
    game.apply(Input("action", "p00", "ability", targets=("p01",)))
    game.apply(play.DEADLINE)  # the morning: the Priest is told p01 is in the Coven
    board.sync()
    game.apply(Input("action", "p02", "vote", "p04"))
    board.sync()
    for _ in range(5):
        assert [i.target for i in bots["p00"].day() if i.action == "vote"] == ["p01"]


def games_of(setup, n=15):
    for index in range(n):
        seed = play.game_seed(4, index)
        yield play.play_game(play.engine_setup(setup, seed), random.Random(seed))


def test_the_coven_never_votes_to_kill_a_witch():
    for game in games_of(suggested("witchhunt", 16)):
        witches = {s.name for s in game.seats if s.team == "witches"}
        votes = [e.data for e in game.events if e.kind == "coven_vote"]
        assert votes and not any(v["target"] in witches for v in votes)


def test_allies_never_vote_each_other_by_day():
    for game in games_of(suggested("witchhunt", 16)):
        team = {s.name: s.type for s in game.seats}
        for e in game.events:
            if e.kind == "vote":
                voter, target = team[e.data["voter"]], team[e.data["target"]]
                # Spies know each other, Elders too (W-24)
                assert not (voter == target and voter in ("village_spy", "elder_witch"))


def test_angels_protect_the_covens_choice():
    protected = 0
    for game in games_of(suggested("witchhunt", 16)):
        coven = None
        for e in game.events:
            if e.kind == "phase":
                coven = {}
            elif e.kind == "coven_vote":
                coven[e.data["voter"]] = e.data["target"]
            elif e.kind == "afterlife" and "protect" in e.data:
                counts = {}
                for t in coven.values():
                    counts[t] = counts.get(t, 0) + 1
                assert counts and counts.get(e.data["protect"]) == max(counts.values())
                protected += 1
    assert protected > 20


def test_the_pack_follows_its_first_vote():
    for game in games_of(suggested("werewolf", 16)):
        night = []
        for e in game.events:
            if e.kind == "phase":
                assert len({v["target"] for v in night}) <= 1, night
                night = []
            elif e.kind == "pack_vote":
                night.append(e.data)
