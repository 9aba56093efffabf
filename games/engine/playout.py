"""Random legal setups and random legal games, for the property tests and the benchmark.

Inputs are drawn at random and kept only when the engine accepts them, so legality is
decided by the engine's own boundary (`Game.try_apply`), never re-implemented here.
"""

import random
from math import floor

from .draws import below, choice, sample, shuffle
from .inputs import Input, new_input
from .revisions import CURRENT
from .rulesets.werewolf.roles import ROLES
from .rulesets.witchhunt.cards import CHARACTERS, HOLY, TYPES

WH_ACTIONS_DAY = ("vote", "vote", "vote", "unvote", "ability")
WH_ACTIONS_NIGHT = ("coven", "court", "ability", "ability", "weapon", "save")
WH_ACTIONS_DEAD = ("protect", "veto", "archangel", "archdemon", "give_card", "save")
WW_ACTIONS_DAY = ("vote", "vote", "unvote", "ability")
WW_ACTIONS_NIGHT = ("pack", "ability", "ability")
SORTED_TYPES = sorted(TYPES)
SORTED_CHARACTERS = sorted(CHARACTERS)
WITHDRAWABLE = ("coven", "court", "protect", "veto", "save", "ability", "weapon", "pack")
TARGET_COUNTS = (0, 1, 1, 1, 2, 3)  # how many targets an ability proposal names
_new = object.__new__  # an Input without its __init__ call, as new_input makes one


def random_setup(rng: random.Random, ruleset: str, n: int, revision: str = CURRENT) -> dict:
    """A setup of `n` players that passes the setup checks (W-23 / the WW checks), played
    under rulings `revision` (W-76; a new game's unless told). The revision draws nothing
    from `rng`, so a seed gives the same setup and game under either."""
    names = [f"p{i:02d}" for i in range(n)]
    if ruleset == "werewolf":
        specials = rng.sample(
            [r for r in ROLES if r not in ("villager", "werewolf")], rng.randint(0, min(10, n - 2))
        )
        wolves = rng.randint(1, max(1, (n - 1) // 3))
        roles = ["werewolf"] * wolves + specials
        roles += ["villager"] * (n - len(roles))
        roles = roles[:n]
        rng.shuffle(roles)
        return {
            "ruleset": "werewolf",
            "revision": revision,
            "seed": rng.randint(0, 10**6),
            "options": {"reveal_on_death": rng.random() < 0.3},
            "players": [{"name": a, "role": r} for a, r in zip(names, roles, strict=True)],
        }
    # rng's own sample, randint, shuffle and choice, made cheaper with the same draws (draws.py)
    chars = sample(rng, SORTED_CHARACTERS, n)
    witches = 1 + below(rng, max(1, (n - 1) // 3))  # rng.randint(1, ...)
    kinds = {}
    others = [c for c in chars if c not in HOLY]
    shuffle(rng, others)
    for c in others[:witches]:
        kinds[c] = choice(rng, ("elder_witch", "junior_witch"))
    rest = others[witches:]
    pairs = min(choice(rng, (0, 0, 1, 2)), len(rest) // 2)
    lover_chars = rest[: 2 * pairs]
    for c in lover_chars:
        kinds[c] = "village_lover"
    for c in rest[2 * pairs :]:
        kinds[c] = choice(rng, ("basic_villager", "basic_villager", "village_spy"))
    for c in chars:
        if c in HOLY:
            kinds[c] = "holy_villager"
    players = [
        {"name": a, "character": c, "type": kinds[c]} for a, c in zip(names, chars, strict=True)
    ]
    by_char = {p["character"]: p["name"] for p in players}
    lovers = [[by_char[lover_chars[2 * i]], by_char[lover_chars[2 * i + 1]]] for i in range(pairs)]
    return {
        "ruleset": "witchhunt",
        "revision": revision,
        "seed": below(rng, 10**6 + 1),  # rng.randint(0, 10**6)
        "options": {"stalemate_cycles": choice(rng, (0, 2, 3))},
        "players": players,
        "lovers": lovers,
    }


def _pick(rand, seq):
    # floor, not int(): the same index for a draw in [0, 1), and a third of the cost
    return seq[floor(rand() * len(seq))]


def random_input(rng: random.Random, game, names) -> Input:
    """One random input, legal or not: a seat's action, a withdrawal, or an advance.

    Targets are drawn mostly from the living, so that most proposals are legal."""
    return _proposer(rng, game, names)()


def _proposer(rng, game, names):
    """`random_input` for one game, as a function of no arguments: what does not change
    during a game (the ruleset's tables, the seats, the generator's bound method) is looked
    up once, not before every proposal of the benchmark. The draws are random_input's, in
    the same order, and picks are by index (as `_pick` does); it reads the game's roster of
    the living."""
    rand = rng.random
    witchhunt = game.RULESET == "witchhunt"
    killers_of = game._coven if witchhunt else game._pack  # (seats, names), kept in _memo
    killers_action = "coven" if witchhunt else "pack"
    withdrawable, n_withdrawable = _sized(WITHDRAWABLE if witchhunt else ("ability", "pack"))
    seats = game.seats  # never replaced: a seat is kept whoever sits in it (W-72)
    # Fixed sizes as floats: `rand() * n` multiplies two floats without converting an int
    # each time, to the same product (an int this small converts exactly).
    n_seats = float(len(seats))
    n_names = float(len(names))
    if witchhunt:
        day_actions, night_actions = _sized(WH_ACTIONS_DAY), _sized(WH_ACTIONS_NIGHT)
    else:
        day_actions, night_actions = _sized(WW_ACTIONS_DAY), _sized(WW_ACTIONS_NIGHT)
    dead_actions = _sized(WH_ACTIONS_DEAD)
    # The day's leader and the killers change only when an input is accepted (a refused one
    # changes nothing), and `game.seq` counts those: each is read again only after one.
    leader_seq = killers_seq = -1
    leader = killers = None
    # Most proposals are refused, and a refused input is dropped (the engine keeps nothing
    # of it), so the Input of an action with one target is filled again for the next such
    # proposal rather than made anew: a new one only once an input has been accepted since
    # it was handed out (`game.seq` moved), for that one may be kept in the record.
    spare, spare_seq = None, -1

    def propose():
        nonlocal leader_seq, leader, killers_seq, killers, spare, spare_seq
        r = rand()
        night = game.night
        if r < 0.06:  # new_input(kind, actor, action, target, targets, guess, choice, what, word)
            inp = _new(Input)  # new_input(...), inlined as below
            inp.kind = "advance"
            inp.word = "midnight" if night and not game.midnight and rand() < 0.7 else "phase"
            inp.actor = inp.action = inp.target = inp.guess = inp.choice = None
            inp.what = inp.player = None
            inp.targets = ()
            return inp
        if r < 0.065:
            player = names[floor(rand() * n_names)]
            return new_input("moderator", None, None, None, (), None, None, None, "remove", player)
        if night and rand() < 0.3:  # the killers meet: a Coven or pack vote
            if killers_seq != game.seq:
                killers_seq = game.seq
                killers = killers_of()[0]
            if killers:
                living = game.living_names or names
                if spare_seq == game.seq:  # a target-shaped Input, filled again (below)
                    inp = spare
                else:
                    inp = spare = _target_shaped()
                    spare_seq = game.seq
                inp.actor = killers[floor(rand() * len(killers))].name
                inp.action = killers_action
                inp.target = living[floor(rand() * len(living))]
                return inp
        seat = seats[floor(rand() * n_seats)]
        if not night and rand() < 0.5:  # a bandwagon: vote with the leader
            if leader_seq != game.seq:
                leader_seq = game.seq
                leader = game.votes.plurality()
            if leader is not None:
                if spare_seq == game.seq:  # as above
                    inp = spare
                else:
                    inp = spare = _target_shaped()
                    spare_seq = game.seq
                inp.actor = seat.name
                inp.action = "vote"
                inp.target = leader
                return inp
        if rand() < 0.05:
            inp = _new(Input)  # new_input(...), inlined as below
            inp.kind = "action"
            inp.actor = seat.name
            inp.action = "withdraw"
            inp.what = withdrawable[floor(rand() * n_withdrawable)]  # _pick, inlined
            inp.target = inp.guess = inp.choice = inp.word = inp.player = None
            inp.targets = ()
            return inp
        if witchhunt and seat.status == "dead":
            actions, n_actions = dead_actions
        else:
            actions, n_actions = night_actions if night else day_actions
        action = actions[floor(rand() * n_actions)]
        pool = names if rand() < 0.05 else game.living_names or names
        target = pool[floor(rand() * len(pool))]
        if action != "ability":  # new_input("action", seat.name, action, target)
            if spare_seq == game.seq:  # as above: the commonest proposal
                inp = spare
            else:
                inp = spare = _target_shaped()
                spare_seq = game.seq
            inp.actor = seat.name
            inp.action = action
            inp.target = target
            return inp
        k = TARGET_COUNTS[floor(rand() * 6.0)]  # _pick(rand, TARGET_COUNTS), inlined
        targets = tuple(sample(rng, pool, k)) if k <= len(pool) else ()
        guess = choice = None
        if not witchhunt:
            choice = _pick(rand, ("heal", "poison")) if seat.role == "witch" else None
        elif seat.character == "lookout":
            choice = _pick(rand, SORTED_TYPES)
        elif seat.character == "wizard":
            guess = _pick(rand, SORTED_CHARACTERS)
        inp = _new(Input)  # new_input(...), inlined as above
        inp.kind = "action"
        inp.actor = seat.name
        inp.action = action
        inp.target = target
        inp.targets = targets
        inp.guess = guess
        inp.choice = choice
        inp.what = inp.word = inp.player = None
        return inp

    return propose


def _target_shaped():
    """A blank Input of an action with one target (new_input's, its actor, action and
    target to be filled in)."""
    inp = _new(Input)
    inp.kind = "action"
    inp.targets = ()
    inp.guess = inp.choice = inp.what = inp.word = inp.player = None
    return inp


def _sized(actions):
    return actions, float(len(actions))


def random_game(rng: random.Random, setup: dict, *, max_steps=600, tries=8):
    """Play `setup` with random legal inputs until the game ends (or `max_steps`).

    Returns (game, steps) where steps are the accepted inputs as record steps."""
    from . import new_game

    game, _ = new_game(setup)
    propose = _proposer(rng, game, [s.name for s in game.seats])
    try_apply = game.try_apply  # the refusal returned, not raised: most proposals are refused
    steps = []
    append = steps.append
    tried = range(tries)
    while not game.over and len(steps) < max_steps:
        for _ in tried:
            inp = propose()
            if try_apply(inp) is None:
                append(inp)
                break
        else:
            inp = Input("advance", None, None, None, (), None, None, None, "phase")
            game.apply(inp)
            append(inp)
    return game, steps


def record_of(setup: dict, steps) -> dict:
    return {**setup, "steps": [s.to_step() for s in steps]}
