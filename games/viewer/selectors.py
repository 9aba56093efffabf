"""A step of the game viewer: the moment itself and the steps before it in its phase, the
vote count as of it, and the state after it as the view saw it.

- The count is the public one as of the moment, from the day's public events up to it
  (selectors/votes.count_from_events, the same reading as "the count as of post N").
- "everything" shows every card with its status, extra lives and Archangel cards
  (selectors/seats.card_rows, the afterlife's and the desk's table) and the rulings behind
  each resolution (selectors/why.log_whys, the reveal's).
- "public" shows what everyone knew of each seat (selectors/seats.public_status).
- "seat-<name>" shows the seat's role page as it stood (selectors/seats.seat_panel: its
  cards, status, extra lives, standing submissions and what it had learned by then) and
  its rooms then; in the Witchhunt afterlife every card too (W-17). No ruling is cited:
  the players' pages never name causes (W-9).
"""

from dataclasses import dataclass, field

from django.urls import reverse

from games.engine import Phase, sees_everything
from games.models import DAY_VOTES, Game, Seat
from games.narration import describe_step, phase_label
from games.narration.actions import action_label
from games.permissions import rooms_in_state
from games.selectors.log import by_phase, events_all
from games.selectors.rooms import label_of
from games.selectors.seats import (
    card_rows,
    display_names,
    game_seats,
    names_then,
    public_status,
    seat_panel,
)
from games.selectors.threads import PUBLIC, posts_shown
from games.selectors.votes import count_from_events
from games.selectors.why import log_whys

from .timeline import EVERYTHING, INPUT, POST, PUBLIC_VIEW, SEAT_VIEW, walk

# The steps of the phase shown above the current one: the thread's last few posts around a
# vote, without listing a 500-post day on every page.
CONTEXT = 6
# The public events a count reads besides the day's votes (selectors/votes.COUNT_EVENTS).
COUNT_KINDS = ("death", "public", "lynch")


@dataclass
class Shown:
    """One step as the page shows it."""

    step: int
    url: str
    kind: str  # START, INPUT or POST
    phase: str  # its label
    at: object
    current: bool
    post: dict | None = None  # threads' row of a post
    room: str = ""  # a room post's room
    events: list = field(default_factory=list)  # GameEvent rows shown
    act: str = ""  # a seat's own input in words, when it made no event it could see
    actor: str = ""  # who played the input


@dataclass
class ViewerPage:
    game: Game
    view: str
    view_label: str
    step: int
    steps: int
    order: int  # the moment's place among all of the game's (the views' common clock)
    names: dict
    shown: list  # Shown: the phase so far (its last CONTEXT steps), the current one last
    phase: str  # the current step's phase label
    phases: list  # (label, url, current): each phase's first step in this view
    prev_url: str = ""
    next_url: str = ""
    views: list = field(default_factory=list)  # (key, label, current)
    seats: list = field(default_factory=list)  # (key, name, current): the seat views
    count: object = None  # votes.VoteCount as of the moment, or None before Day 1
    count_day: str = ""
    cards: list = field(default_factory=list)  # seats.CardRow: every card (whole views)
    public: list = field(default_factory=list)  # (seat name, public status)
    role: dict | None = None  # a seat's view: its role page and rooms at the moment
    whys: dict = field(default_factory=dict)  # GameEvent.index -> [Why] ("everything")
    before_deal: bool = False
    seat_name: str = ""  # a seat's view: its own acts read "You …"


def step_url(game_id, view, step) -> str:
    return reverse("viewer_step", args=[game_id, view, step])


def view_seat(view: str, seats) -> Seat | None:
    """The seat of a "seat-<name>" view among `seats`, else None."""
    if not view.startswith(SEAT_VIEW):
        return None
    name = view[len(SEAT_VIEW) :]
    return next((s for s in seats if s.name == name), None)


def is_view(view: str, seats) -> bool:
    return view in (PUBLIC_VIEW, EVERYTHING) or view_seat(view, seats) is not None


def step_at(game: Game, view: str, order: int) -> int:
    """The step of `view` at the moment `order` of another view: its last step at or
    before that moment (its first when none is)."""
    seats = game_seats(game)
    if not is_view(view, seats):
        return 0
    found = walk(game, seats, events_all(game), view)
    step = 1
    for n, moment in enumerate(found.steps, start=1):
        if moment.order > order:
            break
        step = n
    return step if found.steps else 0


def viewer_page(game: Game, view: str, step: int, labels: dict) -> ViewerPage | None:
    """Step `step` (1 …) of `view` in the finished `game`; None when there is no such
    view or step. `labels`: the views' words (views.py)."""
    seats = game_seats(game)
    seat = view_seat(view, seats)
    if view not in (PUBLIC_VIEW, EVERYTHING) and seat is None:
        return None
    events = events_all(game)
    names = display_names(seats)
    captured = {}

    def capture(state, moment):
        if moment.inputs < 0:
            return None
        captured["public"] = [(s.name, public_status(state, s.name)) for s in seats]
        if view == EVERYTHING or (seat is not None and _sees_all(state, seat)):
            captured["cards"] = card_rows(game, seats, state)
        if seat is not None:
            captured["role"] = _role(game, seat, state, moment.last)
        return True

    found = walk(game, seats, events, view, target=step, capture=capture)
    if not 1 <= step <= len(found.steps):
        return None
    moment = found.steps[step - 1]
    by_index = {row.index: row for row in events}
    replaced = [(r.index, r.data, r.created_at) for r in events if _public(r, "replaced")]
    then = names_then(game, names, replaced).at(found.bound) if replaced else names

    phase_steps = [
        n for n in range(max(1, step - CONTEXT), step + 1)
        if found.steps[n - 1].phase == moment.phase
    ]  # fmt: skip
    page = ViewerPage(
        game=game,
        view=view,
        view_label=labels.get(view) or labels["seat"] % {"name": names.get(seat.name, "")},
        step=step,
        steps=len(found.steps),
        order=moment.order,
        names=then,
        shown=_shown(game, view, found.steps, phase_steps, step, by_index, then, seat),
        phase=phase_label(moment.phase) if moment.phase else "",
        phases=_phases(game.pk, view, found.steps, moment.phase),
        prev_url=step_url(game.pk, view, step - 1) if step > 1 else "",
        next_url=step_url(game.pk, view, step + 1) if step < len(found.steps) else "",
        views=[(k, labels[k], k == view) for k in (PUBLIC_VIEW, EVERYTHING)],
        seats=[(SEAT_VIEW + s.name, names[s.name], s is seat) for s in seats],
        before_deal=moment.inputs < 0,
        seat_name=seat.name if seat is not None else "",
    )
    if found.captured:
        page.public = captured["public"]
        page.cards = captured.get("cards", [])
        page.role = captured.get("role")
    page.count_day, page.count = _count(game, events, moment, found.bound, list(names))
    if view == EVERYTHING:
        wanted = {i for n in phase_steps for i in found.steps[n - 1].shown}
        whys = log_whys(game, by_phase(events), names)
        page.whys = {i: w for i, w in whys.items() if i in wanted}
    return page


def _public(row, kind) -> bool:
    return row.audience == PUBLIC and row.kind == kind


def _sees_all(state, seat) -> bool:
    return sees_everything(state, seat.name)


def _role(game, seat, state, bound) -> dict:
    """The seat's role page and rooms as they stood (selectors/role.py's parts): what it
    had learned is what was addressed to it before the moment's end (`bound`)."""
    panel = seat_panel(game, seat, state)
    keys = rooms_in_state(state, seat.name)
    return {
        "seat": seat,
        "panel": panel,
        "knowledge": by_phase(e for e in panel.knowledge if e.index < bound),
        "standing": list(panel.standing.items()),
        "rooms": [label_of(game, k) for k in keys],
        "sees_all": _sees_all(state, seat),
    }


def _shown(game, view, steps, numbers, current, by_index, names, seat) -> list[Shown]:
    """The steps `numbers` of the phase, each with its post or its events."""
    out = []
    wanted = {}  # thread -> post numbers
    for n in numbers:
        m = steps[n - 1]
        item = Shown(
            step=n,
            url=step_url(game.pk, view, n),
            kind=m.kind,
            phase=phase_label(m.phase) if m.phase else "",
            at=m.at,
            current=n == current,
        )
        if m.kind == POST:
            wanted.setdefault(m.thread, []).append(m.number)
            item.room = "" if m.thread == PUBLIC else label_of(game, m.thread)
        else:
            item.events = [by_index[i] for i in m.shown]
            item.actor = names.get(m.seat, "") if m.seat else ""
            own = seat is not None and m.seat == seat.name
            if m.kind == INPUT and m.seat and not item.events and (view == EVERYTHING or own):
                item.act = _act(m.step, names)
        out.append((item, m))
    rows = {}
    for thread, numbers_ in wanted.items():
        for row in posts_shown(game, thread, numbers_, names):
            rows[(thread, row["number"])] = row
    for item, m in out:
        if m.kind == POST:
            item.post = rows.get((m.thread, str(m.number)))
    return [item for item, _m in out]


def _act(step: dict, names) -> str:
    """A seat's input in words: "Coven vote: Ann"."""
    action = step.get("action", "")
    return f"{action_label(action)}: {describe_step(step, names)}" if action else ""


def _phases(game_id, view, steps, current) -> list:
    firsts = {}
    for n, m in enumerate(steps, start=1):
        if m.phase and m.phase not in firsts:
            firsts[m.phase] = n
    return [(phase_label(p), step_url(game_id, view, n), p == current) for p, n in firsts.items()]


def _count(game, events, moment, bound, seat_names):
    """(day, count): the public count of the moment's day as it stood then (by night the
    day just ended); ("", None) before Day 1."""
    parsed = Phase.parse(moment.phase) if moment.phase else None
    if not parsed:
        return "", None
    day = f"day {parsed.number}"
    rows = [
        (r.index, r.kind, r.phase, r.data)
        for r in events
        if r.index < bound
        and r.audience == PUBLIC
        and ((r.kind in DAY_VOTES and r.phase == day) or r.kind in COUNT_KINDS)
    ]
    return day, count_from_events(rows, day, seat_names, game.seed)
