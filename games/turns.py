"""Whom a phase is waiting for: the seats that must say they are done before a phase's
deadline moves up (W-2a, the early end), and the seats a deadline reminder goes to.
Reads engine state only.

Early end (a per-game option, `Game.early_end`, with its grace period
`Game.early_end_grace`) is an explicit "I'm done for this phase" that a seat records
(services.phase_lock_in), not something guessed from its submissions, because many
choices are optional: a Vigilante keeping his shot, a Witch saving her potion, a player
who wants to abstain. W-2a:

- every *living* seat must say it is done, by day and by night, whatever the game offers
  it; a submission is not "done", and saying so changes no vote or action, which stay
  changeable until the phase ends (W-7);
- "done" cannot be taken back;
- the early end never waits on, or counts, a dead or offstage seat (they cannot say
  done): waiting for the dead with an afterlife vote, or for an offstage last-act holder,
  would tell the living who is an Angel, a Demon or holds a last act (W-16, W-14a), and
  would let the dead signal through it. Only the number of living seats not yet done is
  ever shown;
- a night never ends before its midnight (W-2), so by night "done" can be said only once
  midnight has passed: midnight brings new choices (save votes, Archangel cards) that a
  seat that said "done" earlier would not have seen;
- once every living seat is done, the deadline moves to the game's grace period from
  then (never later than it was), and the phase ends there through the clock, whatever
  the dead and the offstage do (services.inputs.phase_end_if_ready).
"""

from django.utils.translation import gettext_lazy

from games.engine import options_for

# Night decisions a reminder asks for; spending a card is left to the holder.
NIGHT_DUTIES = frozenset({"coven", "court", "protect", "veto", "save", "pack", "ability"})

# W-2a: the reasons a seat cannot say it is done, in the player's words.
NOT_LIVING = gettext_lazy(
    "only the living say they are done; the afterlife's choices wait for the deadline"
)
BEFORE_MIDNIGHT = gettext_lazy("a night never ends before its midnight: say so after midnight")


def can_lock_in_now(state) -> bool:
    """W-2: by night only after midnight; by day at any time."""
    return not state.over and (not state.night or state.midnight)


def may_lock_in(state, name) -> bool:
    """W-2a: only a living seat says it is done (never the dead or the offstage)."""
    seat = state.seat(name)
    return seat is not None and seat.living


def lock_in_refusal(state, name) -> str | None:
    """Why seat `name` cannot say it is done now, or None when it can."""
    if not may_lock_in(state, name):
        return NOT_LIVING
    if not can_lock_in_now(state):
        return BEFORE_MIDNIGHT
    return None


def living_not_done(state, locked_in) -> list[str]:
    """The living seats that have not said they are done (`locked_in`: the names that
    did, in this phase). Its length is all the early end ever shows (W-2a)."""
    return [s.name for s in state.seats if s.living and s.name not in locked_in]


def all_living_done(state, locked_in) -> bool:
    """W-2a: whether every living seat is done, so that the grace period begins."""
    return can_lock_in_now(state) and not any(
        s.living and s.name not in locked_in for s in state.seats
    )


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
