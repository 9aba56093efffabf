"""What a bot may know: one `SeatView` per seat, kept current by the game's `Board`.

A view holds only what its seat may see: the public state (the phase, who lives, the
public vote count), its own cards and status, and the events the engine's visibility rule
(`engine.views.can_see`) lets it see: the public ones (shared by every view) and its own
(results, its meetings, and the whole game once it is in the Witchhunt afterlife, W-17).
Bots get the view alone, never the game; they answer with inputs, which the driver applies.

The Board reads the game through a narrow set of attributes (`events`, `seat(name)` for
the seat's own cards, `living_names`, `votes`, the phase flags, `sees_everything`, and the
engine's `refusal` through `options.option_for`), so the honesty test can hand it a game
whose every other part raises (tests/lab/trap.py).
"""

from games.engine import PUBLIC, ROLES, TYPES, can_see, option_for


class SeatView:
    """One seat's knowledge. `public` is shared by every view of the game (read only)."""

    __slots__ = (
        "name",
        "ruleset",
        "cards",
        "team",
        "public",
        "private",
        "everything",
        "_game",
        "_seat",
        "_board",
    )

    def __init__(self, board, game, name):
        self._board = board
        self._game = game  # this seat's handle on the game (the trap binds it to the seat)
        self.name = name
        self.ruleset = game.RULESET
        seat = self._seat = game.seat(name)  # its own seat: asked for its status often
        if self.ruleset == "werewolf":
            self.cards = {"role": seat.role}
            self.team = ROLES[seat.role][0]  # good, evil or wildcard
        else:
            self.cards = {"character": seat.character, "type": seat.type}
            self.team = TYPES[seat.type][0]  # village or witches
        self.public = board.public
        self.private = []  # the non-public events this seat may see, in the game's order
        # In the Witchhunt afterlife: every event (W-17), a list shared by the dead.
        self.everything = None

    # --- the public state -----------------------------------------------------------
    @property
    def phase(self) -> str:
        """The phase as the events name it: "day N" or "night N"."""
        return self._board.phase  # read at each sync: a phase begins with an event

    @property
    def day(self) -> int:
        return self._game.day

    @property
    def night(self) -> bool:
        return self._game.night

    @property
    def midnight(self) -> bool:
        return self._game.midnight

    @property
    def living(self) -> tuple:
        """The living, in seat order (every death, real or fake, is announced)."""
        return self._game.living_names

    def votes(self) -> dict:
        """The public vote count now: {voter: target}. One copy per sync, shared by the
        views (read only): every bot of a round asks for it."""
        return self._board.votes()

    # --- the seat's own ------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._seat.status == "alive"

    @property
    def status(self) -> str:
        return self._seat.status

    @property
    def afterlife(self) -> bool:
        """In the Witchhunt afterlife: the seat sees every event (W-17)."""
        return bool(self._game.sees_everything(self._seat))

    def allows(self, inp) -> bool:
        """Whether the engine would accept this seat's input now (its check: yes or no)."""
        if inp.actor != self.name:
            raise ValueError("a seat answers for itself only")
        return self._game.refusal(inp) is None

    def option(self, action):
        """The seat's legal option for `action` now (engine/options.py), or None."""
        return option_for(self._game, self.name, action)


class Board:
    """The views of one game, brought up to date by `sync` after inputs are applied.

    Each new event is read once and handed to the seats `can_see` lets see it: everyone
    for a public event (the shared `public`), the living seats it names (their `private`),
    and the seats in the afterlife, the only others `can_see` accepts, who share one list
    of every event (`everything`, from the game's start)."""

    def __init__(self, game, handle=None):
        self._game = game
        self.synced = 0  # how many of the game's events were handed out
        self.public = []
        self.all = None  # every event, once a seat is in the afterlife (it sees them all)
        # handle(name): that seat's way into the game (the game itself, or the trap's)
        handle = handle or (lambda name: game)
        self.views = {s.name: SeatView(self, handle(s.name), s.name) for s in game.seats}
        self._afterlife = set()
        self._private = {name: view.private for name, view in self.views.items()}
        self.phase = game.phase
        self._open = getattr(game, "open_for", None)  # the trap seals what a seat may not see
        self._witchhunt = game.RULESET == "witchhunt"  # no Werewolf seat sees more than its own
        self._votes = None  # the public vote count's copy since the last sync
        self._living = None  # the living when the afterlife was last looked for, and
        self._out = ()  # the seats then out of the living but not in the afterlife

    def votes(self):
        votes = self._votes
        if votes is None:  # votes change by inputs only, and every input is followed by a sync
            votes = self._votes = dict(self._game.votes.votes)
        return votes

    def _opened(self, event, name):
        return event if self._open is None else self._open(event, name)

    def sync(self):
        events = self._game.events
        n = len(events)
        if n == self.synced:
            return
        self._votes = None
        self.phase = self._game.phase
        views = self.views
        entering = ()
        # The afterlife gains a seat only when the living change or one of those out of it
        # (a last act, a fake death) moves on.
        if self._witchhunt and (self._game.living_names is not self._living or self._out):
            entering = self._entering_afterlife()
        if entering and self.all is None:  # the afterlife's first seat: the story so far
            self.all = [self._opened(e, entering[0]) for e in events[: self.synced]]
        for name in entering:
            views[name].everything = self.all
        dead = self._afterlife
        public = self.public
        if self._open is None:  # the game itself: nothing to open, the same routing
            new = events[self.synced : n]
            if dead:
                self.all.extend(new)
            private = self._private
            for event in new:
                to = event.to
                if to == PUBLIC:
                    public.append(event)
                elif isinstance(to, tuple):
                    for name in to:
                        if name not in dead:  # can_see: a seat named in `to` sees it
                            private[name].append(event)
            self.synced = n
            return
        for i in range(self.synced, n):
            event = events[i]
            to = event.to
            if dead:
                self.all.append(self._opened(event, next(iter(dead))))
            if to == PUBLIC:
                public.append(self._opened(event, None))
            elif isinstance(to, tuple):
                for name in to:
                    if name not in dead and can_see(event, name):
                        views[name].private.append(self._opened(event, name))
        self.synced = n

    def _entering_afterlife(self):
        """The seats that have entered the afterlife since the last sync, in seat order."""
        living = self._game.living_names
        if len(living) + len(self._afterlife) == len(self.views):
            self._living, self._out = living, ()
            return []  # nobody else is out of the living: nobody new can be in the afterlife
        if living is not self._living:  # a new roster (the engine makes a new tuple)
            self._living = living
            living = set(living)
            out = [n for n in self.views if n not in living and n not in self._afterlife]
        else:  # the same living: only those out but not yet in the afterlife may enter it
            out = self._out
        views = self.views
        now = [n for n in out if views[n].afterlife]
        if now:
            self._afterlife.update(now)
            out = [n for n in out if n not in self._afterlife]
        self._out = out
        return now
