"""The private role page of one seat: its cards, status, what it learned and what it may
do now. The caller has checked that the seat is the viewer's."""

from dataclasses import dataclass, field

from ..mapping import engine_state
from ..models import Game, Seat
from ..panels import ROLE, Panels, collect
from .log import by_phase
from .rooms import seat_rooms
from .seats import SeatPanel, display_names, seat_panel, seats_public


@dataclass
class RolePage:
    game: Game
    seat: Seat
    names: dict
    panel: SeatPanel
    knowledge: list  # (phase, [events]) in order
    rooms: list = field(default_factory=list)  # (id, label) of the seat's rooms now
    panels: Panels = field(default_factory=Panels)  # the capabilities'


def role_page(game: Game, seat: Seat) -> RolePage:
    """The private page of `seat`."""
    names = display_names(seats_public(game))
    state = engine_state(game)
    panel = seat_panel(game, seat, state)
    return RolePage(
        game=game,
        seat=seat,
        names=names,
        panel=panel,
        knowledge=by_phase(panel.knowledge),
        rooms=seat_rooms(game, seat, state),
        panels=collect(ROLE, game=game, seat=seat, living=panel.living),
    )
