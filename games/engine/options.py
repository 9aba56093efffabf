"""What a seat may do now: the forms of the role page, decided by the engine's own check.

Each option names an action, the legal targets (each checked by `game.refusal`), how many
to pick, and the guess or choice vocabulary. A multi-target ability lists the players
legal as its first target; the full submission is checked again when it is made.
"""

import pickle

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


def _noted(slot):
    """A property over `slot` whose every read sets the probe's `read`."""

    def get(self):
        self.read = True
        return getattr(self, slot)

    def put(self, value):
        setattr(self, slot, value)

    return property(get, put)


class _Probe(Input):
    """An Input that notes whether the check read its target or targets.

    The check is a deterministic function of the game and the input, and the probes of one
    action differ in their targets only: a check that decided (refused or accepted) without
    reading them gives that same answer for every target. So one probe stands for them all
    (most refusals, e.g. "you are not a living player", come before the target is looked
    at), instead of a check and a raised refusal per seat."""

    __slots__ = ("_target", "_targets", "read")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read = False

    target = _noted("_target")
    targets = _noted("_targets")


def _legal(game, inp):
    return game.refusal(inp) is None


def options_for(game, name):
    """The options of seat `name` now, as a list of Option; empty when it may do nothing."""
    if game.over or game.seat(name) is None:
        return []
    names = [s.name for s in game.seats]
    out = [
        option
        for action in (*SINGLE, *PLAIN, "ability")
        if (option := _option(game, name, names, action)) is not None
    ]
    for what in _withdrawable(game, name):
        out.append(Option("withdraw", what=what, choices=_withdraw_choices(game, name, what)))
    return out


def option_for(game, name, action):
    """Seat `name`'s option for one `action` now (as `options_for` lists it), or None: for a
    caller that wants one action without probing every other (the setup lab's bots)."""
    if game.over or game.seat(name) is None:
        return None
    if action not in SINGLE and action not in PLAIN and action != "ability":
        raise ValueError(f"no option is called {action!r}")
    return _option(game, name, [s.name for s in game.seats], action)


def has_option(game, name, skip=()):
    """Whether seat `name` may do anything now but the actions of `skip`: `options_for`'s
    answer, stopping at the first found (the game page asks it of every viewer)."""
    if game.over or game.seat(name) is None:
        return False
    names = [s.name for s in game.seats]
    for action in (*SINGLE, *PLAIN, "ability"):
        if action not in skip and _option(game, name, names, action) is not None:
            return True
    return "withdraw" not in skip and bool(_withdrawable(game, name))


def _option(game, name, names, action):
    if action in SINGLE:
        probe = _Probe("action", name, action, names[0])
        ok = _legal(game, probe)
        if not probe.read:  # decided without the target: the same answer for every seat
            return Option(action, names, 1, 1) if ok else None
        legal = [names[0]] if ok else []
        legal += [
            t
            for t in names[1:]
            if _legal(game, Input("action", actor=name, action=action, target=t))
        ]
        return Option(action, legal, 1, 1) if legal else None
    if action in PLAIN:
        return Option(action) if _legal(game, Input("action", actor=name, action=action)) else None
    shape = game.ability_shape(game.seat(name))
    return None if shape is None else _ability_option(game, name, names, *shape)


# What a preview may name: a seat's own powers. Never "save" (it opens only if an Assassin
# or a Summoner named someone) nor a meeting the seat has not joined yet (the Juniors join
# the Coven at the night's start): either would tell what others did or are.
PREVIEWED = ("ability", "archangel", "weapon", "protect", "veto", "archdemon")
MEETINGS = ("coven", "court", "pack")


def coming_options(game, name, now=None):
    """(when, actions): what seat `name` may do later that it may not do now, by kind only
    (no targets: they would tell what others did). At night before midnight `when` is
    "midnight" (the Werewolf Witch's potions, the Archangel card); by day it is tonight,
    the night begun without the day's end (no lynch: that would tell whether a lynch ends
    the game): "night" when each action opens as the night begins, "night_midnight" when
    each opens only after its midnight (the Werewolf Witch's, WW-5), "night_mixed" when
    some do. ("", []) when there is nothing to announce. `now` is the seat's options now,
    when the caller has them."""
    if game.over or game.seat(name) is None or (game.night and game.midnight):
        return "", []
    now = {o.action for o in (options_for(game, name) if now is None else now)}
    later = _copy(game)
    if game.night:
        when, shown = "midnight", PREVIEWED
    else:
        when = "night"
        shown = PREVIEWED + tuple(m for m in MEETINGS if _member(game, name, m))
        getattr(later, later.NIGHT_START)()
    actions, moments = [], set()
    for _moment in ("night", "midnight") if not game.night else ("midnight",):
        if _moment == "midnight" and not later.over:
            later.pass_midnight()
        if later.over:
            break
        for o in options_for(later, name):
            if o.action in shown and o.action not in now and o.action not in actions:
                actions.append(o.action)
                moments.add(_moment)
    if when == "night" and "midnight" in moments:
        when = "night_mixed" if "night" in moments else "night_midnight"
    return (when, actions) if actions else ("", [])


def _member(game, name, meeting):
    """Whether the seat already sits in the meeting (so naming it tonight tells nothing)."""
    if game.RULESET == "werewolf":
        seat = game.seat(name)
        return meeting == "pack" and seat.role == "werewolf" and seat.living
    if meeting == "coven":
        return name in {s.name for s in game.coven_members()}
    return meeting == "court" and name in game.court_living()


def _copy(game):
    # A what-if copy without the event history: the preview reads no past event, and the
    # history is most of a long game's state.
    events, game.events = game.events, []
    try:
        return pickle.loads(pickle.dumps(game, pickle.HIGHEST_PROTOCOL))
    finally:
        game.events = events


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


def _ability_option(game, name, names, lo, hi, guesses, choices):
    """The ability's form, or None when no submission of its shape is legal now.

    Its targets are the players legal as the first target (the Paladin's extra life lists
    Court members only), its choices those legal now (the Witch's heal only after
    midnight, with a victim): each probed through the engine's check, a multi-target
    probe padded with other living players (and, failing that, the actor)."""
    guess = guesses[0] if guesses else None
    living = [n for n in game.living_names if n != name]
    first, legal_choices, usable = [], [], False
    for choice in choices or [None]:
        probe = _Probe("action", name, "ability", guess=guess, choice=choice)
        ok = lo == 0 and _legal(game, probe)
        probe.read = False
        for t in names if hi else ():
            for pad in (living, [*living, name]):
                probe.targets = (t, *[n for n in pad if n != t][: max(lo - 1, 0)])
                legal = _legal(game, probe)
                if legal or not probe.read:
                    break
            if legal:
                ok = True
                if t not in first:
                    first.append(t)
            if not probe.read:  # the first probe was decided without its targets: so would
                if legal:  # every other be, each seat legal (or not) as this one
                    first += [n for n in names if n not in first]
                break
        usable = usable or ok
        if ok and choice is not None:
            legal_choices.append(choice)
    if not usable:
        return None
    order = {n: i for i, n in enumerate(names)}
    first.sort(key=order.__getitem__)
    return Option("ability", first, lo, hi, guesses, legal_choices)


def _withdrawable(game, name):
    out = []
    for what in ("coven", "court", "protect", "veto", "save", "ability", "weapon", "pack"):
        if _legal(game, Input("action", actor=name, action="withdraw", what=what)):
            out.append(what)
    return out
