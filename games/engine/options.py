"""What a seat may do now: the forms of the role page, decided by the engine's own check.

Each option names an action, the legal targets (each checked by `game.check`), how many
to pick, and the guess or choice vocabulary. A multi-target ability lists the players
legal as its first target; the full submission is checked again when it is made.
"""

from .errors import GameRuleError
from .inputs import Input

# actions that name one target, and those that name none
SINGLE = (
    "vote",
    "coven",
    "court",
    "protect",
    "veto",
    "archdemon",
    "give_card",
    "save",
    "weapon",
    "pack",
)
PLAIN = ("unvote", "archangel")


class Option:
    __slots__ = ("action", "targets", "lo", "hi", "guesses", "choices", "what")

    def __init__(self, action, targets=(), lo=0, hi=0, guesses=(), choices=(), what=None):
        self.action = action
        self.targets = list(targets)
        self.lo = lo
        self.hi = hi
        self.guesses = list(guesses)
        self.choices = list(choices)
        self.what = what

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}


def _legal(game, inp):
    try:
        game.check(inp)
    except GameRuleError:
        return False
    return True


def options_for(game, name):
    """The options of seat `name` now, as a list of Option; empty when it may do nothing."""
    if game.over or game.seat(name) is None:
        return []
    names = [s.name for s in game.seats]
    out = []
    for action in SINGLE:
        legal = [
            t for t in names if _legal(game, Input("action", actor=name, action=action, target=t))
        ]
        if legal:
            out.append(Option(action, legal, 1, 1))
    for action in PLAIN:
        if _legal(game, Input("action", actor=name, action=action)):
            out.append(Option(action))
    shape = game.ability_shape(game.seat(name))
    if shape is not None and _ability_usable(game, name, names, *shape):
        lo, hi, guesses, choices = shape
        living = [s.name for s in game.seats if s.living] if hi else []
        out.append(Option("ability", living, lo, hi, guesses, choices))
    for what in _withdrawable(game, name):
        out.append(Option("withdraw", what=what, choices=_withdraw_choices(game, name, what)))
    return out


def _withdraw_choices(game, name, what):
    """The choices a withdrawal of `what` may name: the Werewolf Witch's potions one by one
    (WW-7; without a choice, both go)."""
    if what != "ability" or game.RULESET != "werewolf":
        return []
    return [
        c
        for c in ("heal", "poison")
        if _legal(game, Input("action", actor=name, action="withdraw", what=what, choice=c))
    ]


def _ability_usable(game, name, names, lo, hi, guesses, choices):
    """Whether some submission of this shape is legal now: each choice (the Witch's heal
    needs no target, her poison one), each first target, the rest padded with others."""
    guess = guesses[0] if guesses else None
    for choice in choices or [None]:
        probe = Input("action", actor=name, action="ability", guess=guess, choice=choice)
        if lo == 0 and _legal(game, probe):
            return True
        for t in names if hi else ():
            probe.targets = (t, *[n for n in names if n != t][: max(lo - 1, 0)])
            if _legal(game, probe):
                return True
    return False


def _withdrawable(game, name):
    out = []
    for what in ("coven", "court", "protect", "veto", "save", "ability", "weapon", "pack"):
        if _legal(game, Input("action", actor=name, action="withdraw", what=what)):
            out.append(what)
    return out
