"""The spectators' delay: how much of a running game a spectator sees.

With no delay a spectator sees everything as it happens. With a one-phase delay the
spectators' view is the game as it stood when the phase BEFORE the current one began:
during Night 2 they see what was known at the start of Day 2 (Night 1 resolved, nothing of
Day 2 nor Night 2); once Day 3 begins, Day 2's votes, rooms and actions appear (as of the
start of Night 2). So a spectator never sees the current phase's hidden inputs, nor the
previous one's: what they might pass on to a player is a whole phase old.

The cut is made of the game's inputs (its record's steps): the inputs applied in a phase
before the cut phase are shown, replayed into the state the cards' table reads, and the
events those inputs made (their indexes are below `events`); a room's posts are shown when
written in a phase before the cut phase. A finished game has no cut (W-71: everything is
revealed at the end); neither has a game not yet started (nothing is hidden yet).
"""

from dataclasses import dataclass

from games.engine import Phase
from games.mapping import engine_state, engine_state_after
from games.models import Game, GameInput, SpectatorSettings


@dataclass(frozen=True)
class Cut:
    """What a spectator sees of a game: `state` (the engine's, for the cards' table),
    events with an index below `events` (None: every event), posts written in one of
    `phases` (None: every post). `as_of` is the phase whose start the view shows (None:
    as it happens)."""

    state: object
    events: int | None = None
    phases: frozenset | None = None
    as_of: Phase | None = None

    def shows_event(self, index: int) -> bool:
        return self.events is None or index < self.events

    def shows_phase(self, phase: str) -> bool:
        return self.phases is None or phase in self.phases


def phases_before(until: Phase) -> frozenset:
    """The names of the phases before `until` (day 1, night 1, … up to it), and "" (what
    was written before the game's first phase)."""
    names, phase = {""}, Phase("day", 1)
    while phase < until:
        names.add(str(phase))
        phase = phase.next()
    return frozenset(names)


def spectator_cut(game: Game, delay: str) -> Cut | None:
    """The spectators' view of `game` under `delay` (SpectatorSettings.Delay); None for a
    game not yet dealt (no state)."""
    if game.status == Game.Status.OPEN:
        return None
    current = Phase.parse(game.phase)
    if delay != SpectatorSettings.Delay.PHASE or game.status != Game.Status.RUNNING:
        return Cut(state=engine_state(game))
    if current is None:
        return None
    until = current.previous()
    phases = phases_before(until)
    # Inputs are applied in phase order, so those of the phases before the cut are the
    # record's first ones: their replay is the state when the cut phase began.
    inputs = GameInput.objects.filter(game=game, phase__in=phases).count()
    state = engine_state_after(game, inputs)
    return Cut(state=state, events=len(state.events), phases=phases, as_of=until)
