"""The bots talk as skills.py and claims.py say: a Seer who found a Werewolf claims and
the village lynches him; the real Seer knows a second claimant of her card is evil; a
framed villager knows the framer lies; the killers field one fake a game; a claimant
whose "evil" was killed by night is believed a liar; random bots lynch every day."""

import random

from games.engine import new_game
from games.engine.inputs import Input
from games.lab.simulation import play
from games.lab.simulation.belief import RESULT, Public
from games.lab.simulation.bots import Bot
from games.lab.simulation.claims import Forum
from games.lab.simulation.setups import suggested
from games.lab.simulation.skills import profile
from games.lab.simulation.town import Town
from games.lab.simulation.view import Board


def werewolf(roles):
    names = [f"p{i:02d}" for i in range(len(roles))]
    players = [{"name": n, "role": r} for n, r in zip(names, roles, strict=True)]
    return {"ruleset": "werewolf", "seed": 3, "options": {}, "players": players}


def table(record, skill="sharp", seed=0):
    """The game, its board and its bots, sharing one forum (as play_game makes them)."""
    game, _ = new_game(record)
    board = Board(game)
    board.sync()
    town = Town(board.public)
    public = Public(town, Forum(), profile(skill), play.evil_count(record), len(board.views))
    rng = random.Random(seed)
    return game, board, {n: Bot(v, rng, town, public) for n, v in board.views.items()}


SEER_GAME = ["seer", "werewolf"] + ["villager"] * 5


def to_day_two(game, board, check="p01"):
    game.apply(play.DEADLINE)  # Day 1: no lynch
    game.apply(Input("action", "p00", "ability", targets=(check,)))
    game.apply(Input("action", "p01", "pack", "p02"))
    game.apply(play.DEADLINE)  # midnight passes first (WW-5), then the morning
    board.sync()


def votes_of(bots, names):
    out = {}
    for name in names:
        out[name] = [i.target for i in bots[name].day() if i.action == "vote"]
    return out


def test_a_seer_who_found_the_werewolf_claims_and_the_village_votes_him():
    game, board, bots = table(werewolf(SEER_GAME))
    to_day_two(game, board)
    bots["p00"].talk()
    forum = bots["p00"].forum
    assert forum.card_of == {"p00": "seer"}
    assert forum.results == [(2, "p00", "p01", True)]
    villagers = ["p03", "p04", "p05", "p06"]
    assert all(v == ["p01"] for v in votes_of(bots, villagers).values())


def test_a_silent_seer_leaves_the_village_guessing():
    # Careless: the village mostly ignores claims; with no claim at all nobody knows p01.
    game, board, bots = table(werewolf(SEER_GAME), skill="careless")
    to_day_two(game, board)
    votes = votes_of(bots, ["p03", "p04", "p05", "p06"])
    assert any(v != ["p01"] for v in votes.values())


def test_the_real_seer_knows_a_second_claimant_lies():
    game, board, bots = table(werewolf(SEER_GAME))
    to_day_two(game, board, check="p03")  # she found a villager: no reason to claim yet
    forum = bots["p00"].forum
    forum.come_out(2, "p04", "seer")  # a villager would not; here it tests the reading
    assert votes_of(bots, ["p00"]) == {"p00": ["p04"]}
    assert bots["p00"].known["p04"] == "evil"


def test_a_framed_villager_knows_the_framer_lies():
    game, board, bots = table(werewolf(SEER_GAME))
    to_day_two(game, board, check="p03")
    forum = bots["p05"].forum
    forum.come_out(2, "p01", "seer")
    forum.divined(2, "p01", "p05", True)
    bots["p05"].hear()
    assert bots["p05"].known["p01"] == "evil"
    bots["p06"].hear()  # who knows nothing of p05 cannot tell
    assert "p01" not in bots["p06"].known


def test_a_claimant_whose_evil_was_killed_by_night_is_believed_a_liar():
    town = Town([])
    public = Public(town, Forum(), profile("typical"), 2, 10)
    public.forum.come_out(2, "p01", "seer")
    public.forum.divined(2, "p01", "p03", True)
    honest = dict(public.scores())
    town.night_dead.add("p03")  # the killers spare their own: p03 was no Werewolf
    town.today = 3  # what the scores depend on moved on
    caught = public.scores()
    assert honest["p01"] < 0 < caught["p01"]  # trusted, then suspected
    assert caught["p01"] - honest["p01"] >= 2 * RESULT


class Recording(Forum):
    kept = []

    def __init__(self):
        super().__init__()
        Recording.kept.append(self)


def test_the_killers_field_one_fake_a_game(monkeypatch):
    monkeypatch.setattr(play, "Forum", Recording)
    Recording.kept = []
    setup = suggested("werewolf", 16)
    fakes = 0
    for index in range(20):
        seed = play.game_seed(6, index)
        record = play.engine_setup(setup, seed)
        roles = {p["name"]: p["role"] for p in record["players"]}
        play.play_game(record, random.Random(seed), skill="sharp")
        forum = Recording.kept[-1]
        liars = [n for n in forum.card_of if roles[n] != forum.card_of[n]]
        assert all(roles[n] == "werewolf" for n in liars)  # the village never lies
        assert len(liars) <= 1
        fakes += len(liars)
    assert fakes >= 10  # sharp: a fake in (nearly) every game


def test_random_bots_lynch_every_day_and_use_no_power(monkeypatch):
    monkeypatch.setattr(play, "Forum", Recording)
    Recording.kept = []
    setup = suggested("werewolf", 16)  # a Seer, a Witch, a Matchmaker, …
    for index in range(10):
        seed = play.game_seed(8, index)
        game = play.play_game(play.engine_setup(setup, seed), random.Random(seed), skill="random")
        days = {e.phase for e in game.events if e.phase.startswith("day")}
        lynched = {e.phase for e in game.events if e.kind == "lynch"}
        assert lynched == days or lynched == days - {max(days, key=lambda p: int(p[4:]))}
        assert not [e for e in game.events if e.kind == "info" and e.data["what"] == "seer"]
    assert Recording.kept == []  # nobody talks: no forum is made
