"""A finished game's moments in order, and which of them each view shows: its steps.

A moment is the deal (the start's events), an input (its events) or a post of any thread.
The inputs keep their order (GameInput.index) and the posts theirs (by time); the two are
merged by time, an input before a post of the same instant: the count as of a post counts
what was stored by the post's time (selectors/votes.count_at_post), and the summary of a
phase is written just after the input that ended it.

Which events an input made is read from the record: the walk replays it (the engine's
`new_game` and `apply`, as `play_record` does), and input j made the events the engine
numbered [bounds[j], bounds[j + 1]), the GameEvent indexes they were stored under. The
same walk has the state after each input, so a step reads who lived then, a seat's rooms
(permissions.rooms_in_state) and whether it saw everything (engine.sees_everything, W-17)
from the rules the live pages read, not from a second copy of them.

Each view keeps the moments it shows something new in:
- "everything": every moment (what the reveal shows, W-71, WW-16);
- "public": the public thread's posts and the inputs with a public event;
- "seat-<name>": the public thread; the posts of the rooms the seat was in at that moment;
  the inputs with an event it could see then (engine.can_see; in the Witchhunt afterlife
  every event and every room, W-17); and its own inputs (its role page listed them). A
  seat is followed whoever held it: a replacement inherited its role page and rooms at
  once (permissions.py, W-72), so a replaced seat's view goes on past the replacement.
"""

from dataclasses import dataclass, field
from datetime import datetime

from games.engine import PUBLIC, can_see, new_game, parse_input, sees_everything
from games.mapping import setup_record
from games.models import GameInput, Post
from games.permissions import rooms_in_state

START, INPUT, POST = "start", "input", "post"
PUBLIC_VIEW, EVERYTHING = "public", "everything"
SEAT_VIEW = "seat-"  # "seat-ann": as seat ann saw it


@dataclass
class Moment:
    kind: str  # START, INPUT or POST
    order: int  # its place among every moment of the game (0 …): the views' common clock
    at: datetime
    phase: str
    inputs: int  # how many inputs were applied when it happened (-1: before the deal)
    first: int = 0  # its events: the GameEvent indexes [first, last)
    last: int = 0
    seat: str = ""  # the seat that played the input or wrote the post ("" for none)
    step: dict = field(default_factory=dict)  # an input's engine step
    thread: str = ""  # a post's
    number: int = 0  # a post's
    shown: tuple = ()  # the GameEvent indexes of its events this view shows


@dataclass
class Walk:
    steps: list  # the view's moments, in order
    moments: int  # every moment of the game, in all
    bound: int = 0  # the target step's events end: everything before it had happened
    captured: object = None  # what `capture(state, moment)` returned at the target step


class _Audience:
    """A stored event as the engine's visibility reads it (engine/views.py `can_see`)."""

    __slots__ = ("to",)

    def __init__(self, row):
        self.to = tuple(row.seat_names) if row.audience == "seats" else row.audience


def walk(game, seats, events, view: str, *, target=None, capture=None) -> Walk:
    """The steps of `view` in `game`; at step `target` (1 …), `capture(state, moment)` is
    called with the engine state of that moment. `seats`: game_seats (with the cards);
    `events`: every GameEvent row in order with `seat_names` (selectors/log.events_all).
    Two queries (the inputs, the posts' places), and one replay of the record."""
    seat = view[len(SEAT_VIEW) :] if view.startswith(SEAT_VIEW) else None
    audiences = {row.index: _Audience(row) for row in events}
    inputs = list(
        GameInput.objects.filter(game=game)
        .order_by("index")
        .values_list("step", "phase", "created_at", "seat__name")
    )
    posts = list(
        Post.objects.filter(game=game)
        .order_by("created_at", "pk")
        .values_list("thread", "number", "phase", "created_at", "seat__name")
    )
    record = setup_record(game, seats)
    record["steps"] = [step for step, *_ in inputs]
    state, _warnings = new_game(record)

    out = Walk(steps=[], moments=0)
    rooms, everything = _seat_sight(state, seat)

    def shows(moment) -> bool:
        if moment.kind == POST:
            return (
                view == EVERYTHING
                or moment.thread == PUBLIC
                or (seat is not None and (everything or moment.thread in rooms))
            )
        indexes = range(moment.first, moment.last)
        if view == EVERYTHING:
            moment.shown = tuple(indexes)
        elif seat is None:
            moment.shown = tuple(i for i in indexes if audiences[i].to == PUBLIC)
        else:
            moment.shown = tuple(
                i for i in indexes if can_see(audiences[i], seat, afterlife=everything)
            )
        return bool(moment.shown) or (seat is not None and moment.seat == seat)

    def add(moment):
        moment.order = out.moments
        out.moments += 1
        if shows(moment):
            out.steps.append(moment)
            if len(out.steps) == target:
                out.bound = moment.last
                if capture is not None:
                    out.captured = capture(state, moment)

    at = 0  # the next post to place
    bound = len(state.events)
    start = Moment(START, 0, game.started_at, _first_phase(inputs, posts), 0, 0, bound)
    timeline = [(game.started_at, start, None)] + [
        (when, Moment(INPUT, 0, when, phase, j + 1, seat=name or "", step=step), step)
        for j, (step, phase, when, name) in enumerate(inputs)
    ]
    for when, moment, step in timeline:
        while at < len(posts) and posts[at][3] < when:
            # A post before the deal (the sign-ups' talk) comes before any state.
            before = -1 if moment.kind == START else moment.inputs - 1
            add(_post(posts[at], before, bound))
            at += 1
        if step is not None:
            state.apply(parse_input(state, step))
            moment.first, moment.last = bound, len(state.events)
            bound = moment.last
            rooms, everything = _seat_sight(state, seat)
        add(moment)
    for row in posts[at:]:
        add(_post(row, len(inputs), bound))
    return out


def _post(row, inputs, bound) -> Moment:
    thread, number, phase, created, name = row
    return Moment(POST, 0, created, phase, inputs, bound, bound, name or "", {}, thread, number)


def _seat_sight(state, seat):
    """(the rooms `seat` may use, whether it sees every event) in `state`: what its live
    pages showed (permissions.rooms_in_state; engine.sees_everything, W-17)."""
    if seat is None:
        return (), False
    return set(rooms_in_state(state, seat)), sees_everything(state, seat)


def _first_phase(inputs, posts) -> str:
    return inputs[0][1] if inputs else (posts[-1][2] if posts else "")
