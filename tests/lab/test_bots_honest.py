"""The bots never read what their seat may not see.

Every game is played twice from the same seed: once on the game itself and once through
tests/lab/trap.py, where another seat's cards or status, any other part of the state and
the contents of an event the seat may not see all raise. The two must end the same, so
the bots decided on nothing the trap withholds. Then the trap is shown to bite."""

import random

import pytest

from games.engine.rulesets.witchhunt.cards import CHARACTERS
from games.lab.simulation import play
from games.lab.simulation.bots import Bot
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import Setup, suggested
from games.lab.simulation.skills import ALL
from games.lab.simulation.view import Board
from tests.lab.trap import HiddenInformation, trap

SETUPS = [
    suggested("witchhunt", 8),
    suggested("witchhunt", 12),
    scaled(suggested("witchhunt", 24), 20),
    suggested("werewolf", 8),
    suggested("werewolf", 16),
    scaled(suggested("werewolf", 24), 20),
]
# Every Witchhunt character and every Werewolf card, so each power's policy runs.
EVERY_CARD = [
    {
        "ruleset": "witchhunt",
        "seats": 48,
        "deal": {
            "mode": "pool",
            "characters": sorted(CHARACTERS),
            "types": {
                "elder_witch": 6,
                "junior_witch": 5,
                "holy_villager": 6,
                "village_spy": 4,
                "village_lover": 4,
                "basic_villager": 23,
            },
        },
        "options": {"stalemate_cycles": 3, "public_setup": True},
    },
]


def both_ways(setup, index, skill="typical"):
    seed = play.game_seed(99, index)
    record = play.engine_setup(setup, seed)
    plain = play.play_game(record, random.Random(seed), skill=skill)
    trapped = play.play_game(record, random.Random(seed), handle=trap, skill=skill)
    return plain, trapped


@pytest.mark.parametrize("skill", ALL)
@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s.label())
def test_bots_play_the_same_games_when_hidden_information_raises(setup, skill):
    # Claims are public (claims.py): every skill's bots, talking or not, see their seat only.
    for index in range(12):
        plain, trapped = both_ways(setup, index, skill)
        assert [e.as_dict() for e in trapped.events] == [e.as_dict() for e in plain.events]


@pytest.mark.parametrize("skill", ALL)
def test_every_card_is_played_honestly(skill):
    setup = Setup.from_dict(EVERY_CARD[0])
    for index in range(3):
        plain, trapped = both_ways(setup, index, skill)
        assert trapped.events and len(trapped.events) == len(plain.events)


def test_werewolf_wildcards_are_played_honestly():
    deal = {
        "mode": "pool",
        "roles": [
            "seer",
            "witch",
            "matchmaker",
            "warlock",
            "thief",
            "crone",
            "fool",
            "were_hamster",
            "were_gerbil",
            "devil",
        ],
        "werewolves": 4,
        "specials": 10,
    }
    setup = Setup("werewolf", 20, deal, {"reveal_on_death": True})
    for index in range(8):
        plain, trapped = both_ways(setup, index)
        assert len(trapped.events) == len(plain.events)


def trapped_board(ruleset="witchhunt"):
    from games.engine import new_game

    record = play.engine_setup(suggested(ruleset, 8), 5)
    game, _ = new_game(record)
    board = Board(trap(game, None), lambda name: trap(game, name))
    board.sync()
    return game, board


def test_the_trap_refuses_another_seats_cards():
    game, board = trapped_board()
    me, other = list(board.views)[:2]
    view = board.views[me]
    assert view.cards  # its own cards pass
    with pytest.raises(HiddenInformation):
        _ = view._game.seat(other).type
    with pytest.raises(HiddenInformation):
        _ = view._game.seat(other).status  # a fake death is hidden too
    with pytest.raises(HiddenInformation):
        _ = view._game.coven_votes
    with pytest.raises(HiddenInformation):
        view._game.day = 3


def test_the_trap_refuses_an_event_the_seat_may_not_see():
    game, board = trapped_board()
    sealed = board._game.events
    private = next(e for e in sealed if e.to != "public")
    outsider = next(n for n in board.views if n not in private.to)
    with pytest.raises(HiddenInformation):
        _ = private.data
    with pytest.raises(HiddenInformation):
        board._game.open_for(private, outsider)
    assert board._game.open_for(private, private.to[0]).data  # its addressee may read it


def test_a_board_that_shows_the_living_the_afterlife_is_caught(monkeypatch):
    # A wrong reading of W-17: every seat counted in the afterlife from the start.
    def everyone(self):
        self._afterlife.update(self.views)
        return list(self.views)

    monkeypatch.setattr(Board, "_entering_afterlife", everyone)
    with pytest.raises(HiddenInformation):
        trapped_board()  # Day 1's private news (the Witches' allies) opened for the living


def test_a_bot_that_peeks_is_caught(monkeypatch):
    def peek(self):
        for name in self.view.living:
            _ = self.view._game.seat(name).type  # what a cheat would read
        return []

    monkeypatch.setattr(Bot, "day", peek)
    seed = play.game_seed(1, 0)
    with pytest.raises(HiddenInformation):
        play.play_game(
            play.engine_setup(suggested("witchhunt", 8), seed), random.Random(seed), handle=trap
        )


def test_bots_reach_the_game_only_through_their_view():
    import inspect

    from games.lab.simulation import belief, bots, claims, random_policy, town

    for module in (bots, town, claims, belief, random_policy):
        source = inspect.getsource(module)
        assert "_game" not in source and "_board" not in source
        assert "import games.engine.rulesets" not in source
