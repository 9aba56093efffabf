"""Whom a phase is waiting for: the seats that must say they are done before a phase may
end early (W-2), and the seats a deadline reminder goes to. Reads engine state only.

Early end (a per-game option, `Game.early_end`) is an explicit "I'm done for this
phase" that a seat records (services.phase_lock_in), not something guessed from its
submissions, because many choices are optional: a Vigilante keeping his shot, a Witch
saving her potion, a player who wants to abstain. Guessing would either end a night
while someone was still deciding or never end it at all. So:

- the seats that *may still act* are those the game offers a decision now
  (games.engine.options.options_for): every living player by day (the vote); by night
  every seat with a night action, including the dead with an afterlife vote;
- a phase ends early once each of them has said it is done; saying so changes no vote
  or action, which stay changeable until the phase ends (W-7);
- a night never ends before its midnight (W-2), so by night "done" can be said only
  once midnight has passed: midnight brings new choices (save votes, Archangel cards)
  that a seat that said "done" earlier would not have seen.
"""

from games.engine.options import options_for

# Options that are not a decision of the phase: withdrawing one, or handing an
# Archangel card to another of the dead (the afterlife may do that at any time).
NOT_DECISIONS = frozenset({"withdraw", "give_card"})
# Night decisions a reminder asks for; spending a card is left to the holder.
NIGHT_DUTIES = frozenset({"coven", "court", "protect", "veto", "save", "pack", "ability"})


def may_act(state, name) -> bool:
    """Whether the game offers seat `name` a decision in this phase."""
    return any(o.action not in NOT_DECISIONS for o in options_for(state, name))


def can_lock_in_now(state) -> bool:
    """W-2: by night only after midnight; by day at any time."""
    return not state.over and (not state.night or state.midnight)


def _still_deciding(state, locked_in):
    return (s.name for s in state.seats if s.name not in locked_in and may_act(state, s.name))


def seats_still_deciding(state, locked_in) -> list[str]:
    """Seats that may act and have not said they are done (`locked_in`: the names that
    did, in this phase)."""
    return list(_still_deciding(state, locked_in))


def is_ready_to_end(state, locked_in) -> bool:
    """Whether the phase may end early now (W-2)."""
    # Stops at the first seat still deciding: by day that is usually the first seat.
    return can_lock_in_now(state) and next(_still_deciding(state, locked_in), None) is None


def awaited(state, name) -> bool:
    """Whether a deadline reminder should go to seat `name`: by day a living player with
    no vote standing; by night a seat (living, or dead with an afterlife vote) that has a
    night duty and has submitted nothing tonight."""
    seat = state.seat(name)
    if seat is None or state.over:
        return False
    if not state.night:
        return seat.living and "vote" not in state.standing(name)
    if state.standing(name):
        return False
    return any(o.action in NIGHT_DUTIES for o in options_for(state, name))
