"""The final reveal (W-71, WW-16) and the game record a finished game (or its moderator)
may download."""

import json
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.mapping import engine_state, game_record
from games.models import Game, SeatTenure
from games.panels import REVEAL, Panels, collect
from games.selectors.desk import moderator_log
from games.selectors.log import by_phase, events_all
from games.selectors.rooms import room_links
from games.selectors.seats import display_names, game_seats
from games.selectors.why import log_whys


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
    # games/panels.py: "head", "deal" (the sealed deal, opened and checked), "before_log"
    panels: Panels = field(default_factory=Panels)
    whys: dict = field(default_factory=dict)  # GameEvent.index -> [Why]: rulings (issue 17)
    # Seat -> the players replaced out of it, in order (W-72): the deal text names seats,
    # the table their last players; the note ties the two.
    replaced: dict = field(default_factory=dict)


def reveal_page(game: Game) -> RevealPage:
    """Every card and every event, private ones included, the moderator's acts (W-72) and
    every private thread."""
    seats = game_seats(game)
    tenures = _tenures(game)
    names = _unmasked(seats, display_names(seats), tenures)
    state = engine_state(game)
    log = by_phase(events_all(game))
    return RevealPage(
        game=game,
        seats=seats,
        names=names,
        statuses={s.name: s.status for s in state.seats},
        winners=list(state.winners),
        log=log,
        moderator_log=moderator_log(game, names),
        threads=room_links(game),
        panels=collect(REVEAL, game=game, seats=seats, names=names),  # the cards just read
        whys=log_whys(game, log, names),
        replaced=_replaced_out(tenures),
    )


def _tenures(game: Game) -> list[tuple]:
    """(seat id, seat name, player name, how they left) of every tenure, in order: the
    aliases' members and the replaced players' note read them (one query)."""
    return list(
        SeatTenure.objects.filter(seat__game=game)
        .order_by("began_at", "pk")
        .values_list("seat_id", "seat__name", "user__player_name", "left")
    )


def _unmasked(seats, names: dict, tenures: list[tuple]) -> dict:
    """An anonymous game's seats by alias and member, "Elm — Ann" (issue 31: the reveal
    shows both), each member who sat there in turn ("Yew — Eve, then Bob")."""
    aliased = [s for s in seats if s.alias]
    if not aliased:
        return names
    members = {}
    for seat_id, _seat, name, _left in tenures:
        members.setdefault(seat_id, []).append(name)
    out = dict(names)
    for seat in aliased:
        who = members.get(seat.pk) or [seat.user.player_name]
        out[seat.name] = _("%(alias)s — %(members)s") % {
            "alias": seat.alias,
            "members": _(", then ").join(who),
        }
    return out


def _replaced_out(tenures: list[tuple]) -> dict[str, list[str]]:
    """Seat name -> the names of the players replaced out of it, in order."""
    out = {}
    for _seat_id, seat, name, left in tenures:
        if left == SeatTenure.Left.REPLACED:
            out.setdefault(seat, []).append(name)
    return out


def record_json(game: Game) -> str:
    """The game record (the conformance FORMAT) as the downloaded file's text."""
    return json.dumps(game_record(game), indent=2, ensure_ascii=False) + "\n"
