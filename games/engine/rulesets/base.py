"""The shared core of every ruleset: seats, phases, events, day votes and moderation.

A ruleset subclasses `Game` and fills in the hooks; everything that W-1, W-4, W-4a,
W-7, W-8 and W-72 say for both rulesets lives here once.
"""

import re

from ..errors import GameRuleError, RecordError
from ..events import DEAD, MODERATOR, PUBLIC, Event
from ..inputs import ACTION_KEYS
from ..order import sha_key
from ..revisions import UNNAMED
from ..votes import new_tally
from ..words import refusal, refusal_n

ALIVE = "alive"
DEAD_ = "dead"  # in the afterlife (Witchhunt) or simply dead (Werewolf)
LAST_ACT = "last_act"  # offstage while a last act is usable (W-14a)
FAKE = "fake"  # the Magician's fake death (W-41): offstage
REMOVED = "removed"  # removed by the moderator (W-72)

NAME_RE = re.compile(r"^[a-z0-9_]+$")
# The commonest refusal, made once: a playout asks the dead to act thousands of times.
NOT_LIVING = refusal("you are not a living player")
NO_VOTE = refusal("you have no vote to withdraw")
DAY_VOTE_ONLY = refusal("you can only vote by day")
# "day N" and "night N", made once for the first hundred days: nearly every event reads one.
PHASE_NAMES = tuple(tuple(f"{word} {n}" for n in range(100)) for word in ("day", "night"))


def phase_name(day, night):
    """The name of a phase ("day 3", "night 3")."""
    if day < 100:
        return PHASE_NAMES[night][day]
    return f"night {day}" if night else f"day {day}"


class Seat:
    """A player of the game: the seat holds the cards, whoever sits in it (W-72).

    `status` changes only through `Game.set_status`, which keeps the roster of the living."""

    __slots__ = ("name", "idx", "status")

    def __init__(self, name, idx):
        self.name = name
        self.idx = idx
        self.status = ALIVE

    @property
    def living(self):
        return self.status == ALIVE


def parse_players(record, parse_cards):
    players = record.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("players: a non-empty list is required")
    seen = set()
    out = []
    for i, p in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            raise RecordError(f"{where}: a player must be an object")
        name = p.get("name")
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise RecordError(f"{where}: name must be lowercase letters, digits or _")
        if name in seen:
            raise RecordError(f"{where}: duplicate name {name!r}")
        seen.add(name)
        out.append((name, parse_cards(p, where)))
    return out


def parse_options(record, defaults):
    options = record.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError("options: must be an object")
    out = dict(defaults)
    for key, value in options.items():
        if key not in defaults:
            raise RecordError(f"options: unknown option {key!r}")
        default = defaults[key]
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise RecordError(f"options: {key} must be true or false")
        elif default is None or isinstance(default, int):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise RecordError(f"options: {key} must be a whole number, 0 or more")
        out[key] = value
    return out


def parse_seed(record):
    seed = record.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise RecordError("seed: must be an integer")
    return seed


def _slot_names(cls):
    """The state's slots of a Game class, as __getstate__ saves them (not the memos)."""
    names = []
    for klass in reversed(cls.__mro__):
        for name in klass.__dict__.get("__slots__", ()):
            if name not in ("__dict__", "_memo", "_fixed", "_actions", "phase"):
                names.append(name)
    return names


class Game:
    """State of one game in progress. Mutated in place by `apply`; `clone()` copies it."""

    RULESET = ""
    # The state's attributes are slots (Witchhunt lists its own too): they are read on every
    # input, and an instance dict of more than 30 names (Witchhunt has about 60) no longer
    # shares its keys in CPython 3.11, which makes every read a lookup. `__dict__` stays, so
    # an attribute not (yet) listed still works, only slower. Pickles and copies hold one
    # dict of them all.
    __slots__ = (
        "revision",
        "seed",
        "options",
        "seats",
        "by_name",
        "day",
        "night",
        "phase",
        "midnight",
        "over",
        "winner",
        "winners",
        "events",
        "seq",
        "votes",
        "living_seats",
        "living_names",
        "_memo",
        "_fixed",
        "_actions",
        "__dict__",
    )
    STALEMATE_REFUSAL = None  # why a declared stalemate is refused, in a ruleset without one
    # action -> (check, perform) method names, for the actions with a check and an effect
    # of their own; `check_action` and `perform` take every other action. One table a class,
    # resolved once: an input reaches its two methods without an if-chain.
    DIRECT_ACTIONS = {}
    _direct = {}
    _other = (None, None)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._other = (cls.check_action, cls.perform)
        # every action of the format, so that `apply` reads the table without a fallback
        cls._direct = {action: cls._other for action in ACTION_KEYS} | {
            action: (getattr(cls, check), getattr(cls, perform))
            for action, (check, perform) in cls.DIRECT_ACTIONS.items()
        }

    def __init__(self, seed, options, seats):
        # W-76: the rulings revision the game is played under to its end (records.begin
        # sets the record's; a game made without a record is a record without one: 2b).
        self.revision = UNNAMED
        self.seed = seed
        self.options = options
        self.seats = seats
        self.by_name = {s.name: s for s in seats}
        self.enter_phase(1, False)
        self.midnight = False
        self.over = False
        self.winner = None
        self.winners = []
        self.events = []
        self.seq = 0
        self.votes = new_tally(self.seed, self.phase)  # W-5a
        self._fixed = {}
        self._actions = self._direct  # a slot: a class attribute read costs a lookup
        self._roster_changed()

    # --- phases and events -------------------------------------------------------
    # `phase`, the name of the phase ("day 3"), is kept beside `day` and `night`, which
    # change only here: nearly every event and tally reads it. It is not pickled (derived).
    def enter_phase(self, day, night):
        self.day = day
        self.night = night
        self.phase = phase_name(day, night)

    def emit(self, kind, to, data, phase=None, meeting=None):
        if not phase:
            phase = self.phase
        # Event.of(kind, phase, to, data, meeting), its fields set here: a call fewer, for
        # nearly every event.
        ev = Event()
        ev.kind = kind
        ev.phase = phase
        ev.to = to
        ev.data = data
        ev.meeting = meeting
        self.events.append(ev)

    def announce(self, data, phase=None):
        """A public announcement (the `public` list of the log)."""
        self.emit("public", PUBLIC, data, phase)

    def tell(self, to, what, result, about=None, phase=None):
        """A private result for one seat (the `info` list)."""
        data = {"what": what, "result": result}
        if about is not None:
            data["about"] = about
        if not phase:
            phase = self.phase
        ev = Event()  # emit, inlined
        ev.kind = "info"
        ev.phase = phase
        ev.to = (to,)
        ev.data = data
        ev.meeting = None
        self.events.append(ev)

    def tell_each(self, names, what, result, phase):
        """`tell(name, what, result, None, phase)` for each of `names`, in one call: each
        midnight tells every dead Angel the vetoes (W-18), a few hundred results a game.
        The events share their data, as they share its result: the same for each."""
        append = self.events.append
        data = {"what": what, "result": result}
        for to in names:
            ev = Event()
            ev.kind = "info"
            ev.phase = phase
            ev.to = (to,)
            ev.data = data
            ev.meeting = None
            append(ev)

    def log_mod(self, data):
        self.emit("moderator", MODERATOR, data)

    def log_dead(self, data):
        self.emit("afterlife", DEAD, data)

    # --- the roster of the living --------------------------------------------------
    # The day's majority, the Coven's and the pack's checks and the random inputs ask who
    # lives on nearly every input, and statuses change a few times a game. So the living
    # are kept, in seat order, as `living_seats` and `living_names`, rebuilt by the one
    # writer of a status; `_memo` holds lists derived from them (the Coven, the pack) and
    # is dropped with them. `_fixed` holds lists that never change (the seats of a type).
    def set_status(self, seat, status):
        was_living = seat.status == ALIVE
        seat.status = status
        if was_living != (status == ALIVE):  # else the living (and what `_memo` holds) stay
            if was_living:  # one leaves: cut it out of both (parallel) tuples, no scan
                seats = self.living_seats
                i = seats.index(seat)
                self.living_seats = seats[:i] + seats[i + 1 :]
                names = self.living_names
                self.living_names = names[:i] + names[i + 1 :]
                self._memo = {}
            else:
                self._roster_changed()

    def _roster_changed(self):
        self.living_seats = tuple([s for s in self.seats if s.status == ALIVE])
        self.living_names = tuple([s.name for s in self.living_seats])
        self._memo = {}

    def __getstate__(self):
        # `_memo` and `_fixed` are filled on demand, by a refused input's check too: they are
        # not part of the game's state, so a pickle or a copy leaves them out.
        state = dict(self.__dict__)
        for name in _slot_names(type(self)):
            if hasattr(self, name):
                state[name] = getattr(self, name)
        return state

    def __setstate__(self, state):
        state.setdefault("revision", UNNAMED)  # pickled before W-76: a revision 2b game
        for name, value in state.items():  # a state pickled before the slots reads the same
            setattr(self, name, value)
        self._fixed = {}
        self._actions = self._direct
        self.phase = phase_name(self.day, self.night)
        self._roster_changed()  # also gives a state pickled before the roster existed one

    # --- queries -----------------------------------------------------------------
    def living(self):
        return list(self.living_seats)

    def living_count(self):
        return len(self.living_seats)

    def seat(self, name):
        return self.by_name.get(name)

    # --- applying inputs ---------------------------------------------------------
    # A check returns None when the rules allow the input now, else the refusal in the
    # player's words: raising it would cost a traceback entry for every frame it leaves,
    # and most inputs a playout or a bot proposes are refused. `apply` raises it once.
    def apply(self, inp):
        """Apply one input; return the events it caused.

        Raises GameRuleError (nothing changed) when the rules refuse it.
        """
        start = len(self.events)
        why = self.try_apply(inp)
        if why is not None:
            raise GameRuleError(why)
        return self.events[start:]

    def try_apply(self, inp):
        """Apply one input if the rules allow it: None, else the refusal (nothing changed)."""
        if self.over:
            return refusal("the game is over")
        if inp.kind == "action":
            actor = self.by_name.get(inp.actor)
            if actor is None:
                return refusal("there is no player named %(player)s", {"player": inp.actor})
            try:
                check, perform = self._actions[inp.action]
            except KeyError:  # not an action of the format: check_action words the refusal
                check, perform = self._other
            why = check(self, actor, inp)
            if why is not None:
                return why
            self.seq += 1
            perform(self, actor, inp)
            return None
        why = self.refusal(inp)
        if why is not None:
            return why
        self.seq += 1
        if inp.kind == "advance":
            if inp.word == "midnight":
                self.pass_midnight()
            else:
                self.advance_phase()
        else:
            self.moderate(inp)
        return None

    def refusal(self, inp):
        """Why the rules refuse `inp` now, or None when they allow it (nothing changes)."""
        if inp.kind == "advance":
            if inp.word == "midnight":
                if not self.night:
                    return refusal("midnight only passes at night")
                if self.midnight:
                    return refusal("midnight has already passed tonight")
            return None
        if inp.kind == "moderator":
            if inp.word in ("remove", "replace"):
                seat = self.seat(inp.player)
                if seat is None:
                    return refusal("there is no player named %(player)s", {"player": inp.player})
                if inp.word == "remove" and seat.status == REMOVED:
                    # W-72a
                    return refusal("%(player)s has already been removed", {"player": inp.player})
            elif inp.word == "stalemate" and self.STALEMATE_REFUSAL:
                return self.STALEMATE_REFUSAL  # refused here: nothing changes
            return None
        actor = self.by_name.get(inp.actor)
        if actor is None:
            return refusal("there is no player named %(player)s", {"player": inp.actor})
        return self._direct.get(inp.action, self._other)[0](self, actor, inp)

    # --- shared refusals (W-8): each returns the refusal, or None --------------------
    def target_refusal(self, name):
        seat = self.by_name.get(name)
        if seat is None or seat.status != ALIVE:
            return refusal("%(target)s is not a living player", {"target": name})
        return None

    def stray_keys_refusal(self, actor, inp):
        """FORMAT (revision 3): an `ability` step's `guess` or `choice` that the actor's
        card does not take (its `ability_shape`) is refused, never ignored nor filed as
        something else: a Seer's "poison" would stand as a potion and the Seer's own
        check never resolve. None when the card takes the keys given, or has no ability
        (its own check says so). Ask it only when the step carries one of the keys."""
        shape = self.ability_shape(actor)
        if shape is None:
            return None
        _lo, _hi, guesses, choices = shape
        if inp.guess is not None and not guesses:
            return refusal("your ability takes no guess")
        if inp.choice is not None and not choices:
            return refusal("your ability takes no choice")
        return None

    def targets_refusal(self, names, lo, hi, *, self_ok=True, actor=None):
        if not lo <= len(names) <= hi:
            if lo == hi:
                return refusal_n(
                    "choose exactly %(count)s player", "choose exactly %(count)s players", lo
                )
            return refusal("choose between %(low)s and %(high)s players", {"low": lo, "high": hi})
        if len(names) > 1 and len(set(names)) != len(names):  # one name needs no set
            return refusal("choose different players")
        # each name as target_refusal checks it, and not chosen by themselves unless allowed
        by_name = self.by_name
        for name in names:
            seat = by_name.get(name)
            if seat is None or seat.status != ALIVE:
                return refusal("%(target)s is not a living player", {"target": name})
            if not self_ok and actor is not None and name == actor.name:
                return refusal("you cannot choose yourself")
        return None

    # --- day votes (W-4, W-4a) ---------------------------------------------------
    def check_vote(self, actor, inp):
        # target_refusal, inlined: a vote is the commonest input
        if self.night:
            return DAY_VOTE_ONLY
        if actor.status != ALIVE:
            return NOT_LIVING
        if inp.action == "vote":
            seat = self.by_name.get(inp.target)
            if seat is None or seat.status != ALIVE:
                return refusal("%(target)s is not a living player", {"target": inp.target})
        elif actor.name not in self.votes.votes:
            return NO_VOTE
        return None

    def perform_vote(self, actor, inp):
        if inp.action == "vote":
            target = inp.target
            votes = self.votes
            if votes.cast(actor.name, target, self.seq):
                # emit and check_majority, inlined: a vote is the commonest input
                ev = Event()
                ev.kind = "vote"
                ev.phase = self.phase
                ev.to = PUBLIC
                ev.data = {"voter": actor.name, "target": target}
                ev.meeting = None
                self.events.append(ev)
                if self.night or self.over:
                    return
                # check_majority, for the one count this vote raised: every change that
                # could make a majority (a vote, a death or removal by day) is followed by
                # the check, so before this vote no count held one, and only the target's
                # can hold one now (W-4).
                if votes.counts[target] >= len(self.living_seats) // 2 + 1:
                    self.lynch(target)
        else:
            self.votes.withdraw(actor.name, self.seq)
            self.emit("unvote", PUBLIC, {"voter": actor.name})

    def check_majority(self):
        """Lynch at once whoever holds a true majority of the living (W-4, W-4a)."""
        if self.night or self.over:
            return
        need = len(self.living_seats) // 2 + 1  # votes.majority(), inlined: asked after every vote
        for target, n in self.votes.counts.items():
            if n >= need:
                self.lynch(target)
                return

    def drop_votes_of(self, name):
        """W-4a: a player who stops living by day loses their vote and every vote for them."""
        if not self.night:
            self.votes.withdraw(name, self.seq)
            self.votes.drop_target(name, self.seq)

    def tally(self):
        """The public vote count: (target, voters) by count, then by when it last changed."""
        by_target = {}
        for voter, target in self.votes.votes.items():
            by_target.setdefault(target, []).append(voter)
        changed = self.votes.changed
        order = sorted(  # W-5a: a remaining tie in the SHA-256 order, never by name
            by_target,
            key=lambda t: (-len(by_target[t]), changed[t], sha_key(self.seed, self.phase, t)),
        )
        return [(t, sorted(by_target[t])) for t in order]

    # --- moderation (W-72) -------------------------------------------------------
    def moderate(self, inp):
        if inp.word == "replace":
            self.emit("replaced", PUBLIC, {"player": inp.player})
            return
        if inp.word == "stalemate":
            self.log_mod({"act": "stalemate"})
            self.declare_stalemate()
            return
        seat = self.by_name[inp.player]
        was_living = seat.status == ALIVE
        self.log_mod({"act": "remove", "player": seat.name})
        self.remove(seat, was_living)

    # --- hooks -------------------------------------------------------------------
    # check_action and perform: the actions DIRECT_ACTIONS does not name
    def check_action(self, actor, inp):  # pragma: no cover - abstract
        raise NotImplementedError

    def perform(self, actor, inp):  # pragma: no cover - abstract
        raise NotImplementedError

    def lynch(self, target):  # pragma: no cover - abstract
        raise NotImplementedError

    def pass_midnight(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def advance_phase(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def remove(self, seat, was_living):  # pragma: no cover - abstract
        raise NotImplementedError

    def declare_stalemate(self):  # pragma: no cover - abstract
        raise NotImplementedError
