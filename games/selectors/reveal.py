"""The final reveal (W-71, WW-16) and the game record a finished game (or its moderator)
may download."""

import json
from dataclasses import dataclass, field

from ..mapping import engine_state, game_record
from ..models import Game
from .desk import moderator_log
from .log import by_phase, events_all
from .notes import shared_notes
from .rooms import room_links
from .seats import display_names, game_seats


@dataclass
class RevealPage:
    game: Game
    seats: list
    names: dict
    statuses: dict
    winners: list
    log: list  # (phase, [events])
    moderator_log: list = field(default_factory=list)  # desk.ModeratorAct, in order
    threads: list = field(default_factory=list)  # rooms.RoomLink: every private thread
    notes: list = field(default_factory=list)  # notes.SharedNote: notes their authors shared


def reveal_page(game: Game) -> RevealPage:
    """Every card and every event, private ones included, the moderator's acts (W-72) and
    every private thread."""
    seats = game_seats(game)
    names = display_names(seats)
    state = engine_state(game)
    return RevealPage(
        game=game,
        seats=seats,
        names=names,
        statuses={s.name: s.status for s in state.seats},
        winners=list(state.winners),
        log=by_phase(events_all(game)),
        moderator_log=moderator_log(game, names),
        threads=room_links(game),
        notes=shared_notes(game),
    )


def record_json(game: Game) -> str:
    """The game record (the conformance FORMAT) as the downloaded file's text."""
    return json.dumps(game_record(game), indent=2, ensure_ascii=False) + "\n"
