"""The shared core of every ruleset: seats, phases, events, day votes and moderation.

A ruleset subclasses `Game` and fills in the hooks; everything that W-1, W-4, W-4a,
W-7, W-8 and W-72 say for both rulesets lives here once.
"""

import re

from ..errors import GameRuleError, RecordError
from ..events import DEAD, MODERATOR, PUBLIC, Event
from ..votes import Tally, majority

ALIVE = "alive"
DEAD_ = "dead"  # in the afterlife (Witchhunt) or simply dead (Werewolf)
LAST_ACT = "last_act"  # offstage while a last act is usable (W-14a)
FAKE = "fake"  # the Magician's fake death (W-41): offstage
REMOVED = "removed"  # removed by the moderator (W-72)

NAME_RE = re.compile(r"^[a-z0-9_]+$")


class Seat:
    """A player of the game: the seat holds the cards, whoever sits in it (W-72)."""

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


class Game:
    """State of one game in progress. Mutated in place by `apply`; `clone()` copies it."""

    RULESET = ""

    def __init__(self, seed, options, seats):
        self.seed = seed
        self.options = options
        self.seats = seats
        self.by_name = {s.name: s for s in seats}
        self.day = 1
        self.night = False
        self.midnight = False
        self.over = False
        self.winner = None
        self.winners = []
        self.events = []
        self.seq = 0
        self.votes = Tally()

    # --- phases and events -------------------------------------------------------
    @property
    def phase(self):
        return f"night {self.day}" if self.night else f"day {self.day}"

    def emit(self, kind, to, data, phase=None, meeting=None):
        self.events.append(Event(kind, phase or self.phase, to, data, meeting))

    def announce(self, data, phase=None):
        """A public announcement (the `public` list of the log)."""
        self.emit("public", PUBLIC, data, phase)

    def tell(self, to, what, result, about=None, phase=None):
        """A private result for one seat (the `info` list)."""
        data = {"what": what, "result": result}
        if about is not None:
            data["about"] = about
        self.emit("info", (to,), data, phase)

    def log_mod(self, data):
        self.emit("moderator", MODERATOR, data)

    def log_dead(self, data):
        self.emit("afterlife", DEAD, data)

    # --- queries -----------------------------------------------------------------
    def living(self):
        return [s for s in self.seats if s.status == ALIVE]

    def living_count(self):
        return sum(1 for s in self.seats if s.status == ALIVE)

    def seat(self, name):
        return self.by_name.get(name)

    # --- applying inputs ---------------------------------------------------------
    def apply(self, inp):
        """Apply one input; return the events it caused.

        Raises GameRuleError (nothing changed) when the rules refuse it.
        """
        start = len(self.events)
        if self.over:
            raise GameRuleError("the game is over")
        self.check(inp)
        self.seq += 1
        if inp.kind == "advance":
            if inp.word == "midnight":
                self.pass_midnight()
            else:
                self.advance_phase()
        elif inp.kind == "moderator":
            self.moderate(inp)
        else:
            self.perform(inp)
        return self.events[start:]

    def check(self, inp):
        if inp.kind == "advance":
            if inp.word == "midnight":
                if not self.night:
                    raise GameRuleError("midnight only passes at night")
                if self.midnight:
                    raise GameRuleError("midnight has already passed tonight")
            return
        if inp.kind == "moderator":
            if inp.word in ("remove", "replace"):
                seat = self.seat(inp.player)
                if seat is None:
                    raise GameRuleError(f"there is no player named {inp.player}")
                if inp.word == "remove" and seat.status == REMOVED:
                    raise GameRuleError(f"{inp.player} has already been removed")
            return
        actor = self.seat(inp.actor)
        if actor is None:
            raise GameRuleError(f"there is no player named {inp.actor}")
        self.check_action(actor, inp)

    # --- shared validation helpers (W-8) -----------------------------------------
    def need_living_actor(self, actor):
        if actor.status != ALIVE:
            raise GameRuleError("you are not a living player")

    def need_target(self, name, *, self_ok=True, actor=None):
        seat = self.seat(name)
        if seat is None or seat.status != ALIVE:
            raise GameRuleError(f"{name} is not a living player")
        if not self_ok and actor is not None and name == actor.name:
            raise GameRuleError("you cannot choose yourself")
        return seat

    def need_targets(self, names, lo, hi, *, self_ok=True, actor=None):
        if not lo <= len(names) <= hi:
            if lo == hi:
                raise GameRuleError(f"choose exactly {lo} player{'s' if lo > 1 else ''}")
            raise GameRuleError(f"choose between {lo} and {hi} players")
        if len(set(names)) != len(names):
            raise GameRuleError("choose different players")
        return [self.need_target(n, self_ok=self_ok, actor=actor) for n in names]

    def need_day(self, what="do that"):
        if self.night:
            raise GameRuleError(f"you can only {what} by day")

    def need_night(self, what="do that"):
        if not self.night:
            raise GameRuleError(f"you can only {what} at night")

    # --- day votes (W-4, W-4a) ---------------------------------------------------
    def check_vote(self, actor, inp):
        self.need_day("vote")
        self.need_living_actor(actor)
        if inp.action == "vote":
            self.need_target(inp.target)
        elif actor.name not in self.votes.votes:
            raise GameRuleError("you have no vote to withdraw")

    def perform_vote(self, actor, inp):
        if inp.action == "vote":
            if self.votes.cast(actor.name, inp.target, self.seq):
                self.emit("vote", PUBLIC, {"voter": actor.name, "target": inp.target})
                self.check_majority()
        else:
            self.votes.withdraw(actor.name, self.seq)
            self.emit("unvote", PUBLIC, {"voter": actor.name})

    def check_majority(self):
        """Lynch at once whoever holds a true majority of the living (W-4, W-4a)."""
        if self.night or self.over:
            return
        need = majority(self.living_count())
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
        order = sorted(by_target, key=lambda t: (-len(by_target[t]), self.votes.changed[t]))
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
    def check_action(self, actor, inp):  # pragma: no cover - abstract
        raise NotImplementedError

    def perform(self, inp):  # pragma: no cover - abstract
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
