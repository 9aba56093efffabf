"""One game of a setup, dealt from its own seed and played by the bots to its end.

The driver is the moderator's clock: by day each acting seat, in a random order, makes
its inputs (the lynch may end the day early), then the deadline passes; by night each seat
acts, midnight passes, each acts again, and the deadline passes. Only the driver holds the
game; the bots see their views. A refused input (a bot's mistake, or a power not usable
now) changes nothing and is dropped, as the site would refuse it.
"""

import hashlib
import random

from games.deal import deal_cards
from games.engine import CURRENT_REVISION, Input, new_game
from games.engine.collector import collector_paused
from games.engine.draws import shuffle

from .bots import Bot
from .town import Town
from .view import Board

UNFINISHED = "unfinished"
MIDNIGHT = Input("advance", word="midnight")
DEADLINE = Input("advance", word="phase")
DAY, NIGHT, AFTER_MIDNIGHT = "day", "night", "after midnight"  # a round's turns (_round)


def game_seed(seed: int, index: int) -> int:
    """Game `index` of an estimate's seed: independent of how the games are chunked."""
    digest = hashlib.sha256(f"lab:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def engine_setup(setup, seed: int) -> dict:
    """The engine's setup for one game: the deal drawn with the game's seed, played under
    the rulings a new game starts under (W-76)."""
    names = [f"p{i:02d}" for i in range(setup.seats)]
    record = {
        "ruleset": setup.ruleset,
        "revision": CURRENT_REVISION,
        "seed": seed,
        "options": dict(setup.options),
    }
    return {**record, **deal_cards(setup.ruleset, setup.deal, names, seed)}


def max_days(seats: int) -> int:
    """A game not over by then is counted unfinished: with a death a day it would be."""
    return seats + 10


def play_game(record: dict, rng: random.Random, *, handle=None, skill: str = "typical"):
    """Play the engine setup `record` with the bots; returns the game at its end.

    `handle(game, name)` is how a seat (None: the Board) reaches the game: the game itself,
    or in the honesty test a guard whose hidden parts raise (tests/lab/trap.py)."""
    game, _ = new_game(record)
    if handle is None:
        board = Board(game)
    else:
        board = Board(handle(game, None), lambda name: handle(game, name))
    town = Town(board.public)
    bots = {name: Bot(view, rng, town) for name, view in board.views.items()}
    last_day = max_days(len(bots))
    # The dead act at night in the Witchhunt afterlife only; nobody acts once removed.
    night_acts = ("alive", "last_act", "dead") if game.RULESET == "witchhunt" else ("alive",)
    while not game.over and game.day <= last_day:
        phase = (game.day, game.night)
        if game.night:
            names = [s.name for s in game.seats if s.status in night_acts]
            _round(game, board, bots, names, rng, NIGHT)
            if not game.over and not game.midnight:
                game.apply(MIDNIGHT)
                _round(game, board, bots, names, rng, AFTER_MIDNIGHT)
        else:
            names = [s.name for s in game.seats if s.status in ("alive", "last_act")]
            _round(game, board, bots, names, rng, DAY)
        if not game.over and (game.day, game.night) == phase:  # else a lynch ended the day
            game.apply(DEADLINE)
    return game


def _round(game, board, bots, names, rng, turn):
    """Every seat acts once, in a random order, until the phase changes or the game ends."""
    day, night = game.day, game.night
    order = list(names)
    shuffle(rng, order)  # rng.shuffle's draws
    if turn is not DAY:  # a seat asleep now stays so this round: nothing it is told wakes it
        board.sync()
        order = [name for name in order if not bots[name].asleep()]
    after_midnight = turn is AFTER_MIDNIGHT
    events = game.events  # the game appends to it: the board needs a sync when it grew
    try_apply = game.try_apply  # a refusal returned, not raised
    for name in order:
        if len(events) != board.synced:
            board.sync()
        bot = bots[name]
        for inp in bot.day() if turn is DAY else bot.night(after_midnight):
            if try_apply(inp) is not None:
                continue
            if game.over or game.day != day or game.night != night:
                board.sync()
                return
    board.sync()


def play_one(setup, seed: int, index: int, skill: str = "typical") -> tuple[str, int]:
    """(the result's name, the day it ended) of game `index` of an estimate, played by
    bots of `skill` (skills.py); game i's seed does not depend on the skill."""
    s = game_seed(seed, index)
    with collector_paused():
        game = play_game(engine_setup(setup, s), random.Random(s))
    return (game.winner if game.over else UNFINISHED), game.day
