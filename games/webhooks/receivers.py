"""The core's events a game's webhooks hear, each told as a story (tell.py) to whatever
listens (story.listen: the deliveries). Each receiver runs inside the write's transaction,
so a story is announced with the write that made it or not at all.

- GAME_OPENED: the game is open for sign-ups;
- GAME_STARTED: it started (the start post, the players, Day 1's deadline);
- INPUT_APPLIED: a day's public vote count moved (a vote, a withdrawal, a death by day),
  or the day ended (the final count); one story a day, each superseding the last
  (`replaces`);
- PHASE_BEGAN: the phase that ended (its summary post: the count, the lynch, the deaths),
  then the one that began (its deadline);
- GAME_ENDED: the end (the last post, the winners, the reveal's link);
- SWEEP_TICKED: a deadline is near (near.py).
"""

from games import queue
from games.engine import Phase
from games.models import DAY_VOTES, GameEvent

from . import near, story, tell

# What moves a day's public count (selectors/votes.py COUNT_EVENTS): the votes, and a
# death by day (W-4a: the dead lose their vote and every vote for them).
COUNT_MOVES = (*DAY_VOTES, "death")


def opened(*, game, **_):
    story.announce(game, "signups_open", tell.signups_open(game))


def started(*, game, **_):
    story.announce(game, "game_started", tell.game_started(game))


def count_moved(*, game, phase, state, rows, **_):
    """A day's public count moved, or the day ended (its count is final: the message a
    chat edits in place says so). Only public rows count, so a hidden input (a night
    action, a secret day power) tells nothing, not even that something happened."""
    day = Phase.parse(phase)
    if day is None or day.is_night:
        return
    ended = game.phase != phase or game.status == game.Status.FINISHED
    moved = any(r.audience == GameEvent.Audience.PUBLIC and r.kind in COUNT_MOVES for r in rows)
    if ended or moved:
        story.announce(game, "vote_count", tell.vote_count_story(game, phase, state))


def phase_began(*, game, first_event, **_):
    story.announce(game, "phase_ended", tell.phase_ended_story(game, first_event))
    story.announce(game, "phase_began", tell.phase_began(game))


def ended(*, game, first_event, **_):
    story.announce(game, "game_ended", tell.game_ended(game, first_event))


def connect():
    queue.connect(queue.GAME_OPENED, opened)
    queue.connect(queue.GAME_STARTED, started)
    queue.connect(queue.INPUT_APPLIED, count_moved)
    queue.connect(queue.PHASE_BEGAN, phase_began)
    queue.connect(queue.GAME_ENDED, ended)
    queue.connect(queue.SWEEP_TICKED, near.deadlines_near)


def disconnect():
    """The tests' undoing of `connect`."""
    for event, receiver in (
        (queue.GAME_OPENED, opened),
        (queue.GAME_STARTED, started),
        (queue.INPUT_APPLIED, count_moved),
        (queue.PHASE_BEGAN, phase_began),
        (queue.GAME_ENDED, ended),
        (queue.SWEEP_TICKED, near.deadlines_near),
    ):
        queue.disconnect(event, receiver)
