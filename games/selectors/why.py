"""The ruling beside each resolution of a game's log (issue 17): "Cat survived: protected
by the Angels (W-10)". For the moderator's desk and the final reveal only: the afterlife's
log and every player's page leave these out, since they name causes the living are never
told (W-9)."""

from functools import cache

from .. import rulebook
from ..mapping import engine_state
from ..models import Game, GameEvent
from ..narration.why import Ev, cards_of, explain


@cache
def ruling_urls() -> dict[str, str]:
    """Every published ruling's place on the rules pages, by its number."""
    return {r.number: r.url for rs in rulebook.rulesets() for r in rs.rulings.all if r.number}


def with_urls(whys) -> list:
    urls = ruling_urls()
    return [w._replace(url=urls.get(w.ruling, "")) for w in whys]


def row_as_ev(row: GameEvent) -> Ev:
    """A stored event as the reading takes it (`seat_names` as `events_all` sets them)."""
    seats = row.audience == GameEvent.Audience.SEATS
    return Ev(row.kind, row.phase, row.data, tuple(row.seat_names) if seats else row.audience)


def state_cards(game: Game):
    return cards_of(engine_state(game).seats)


def log_whys(game: Game, log, names) -> dict[int, list]:
    """{GameEvent.index: [Why]} for the events of `log` ((phase, events) pairs, every
    event of the game, as `log.by_phase(events_all(game))` gives them). No query: the
    cards come from the request's engine state."""
    rows = [row for _phase, events in log for row in events]
    found = explain(
        [row_as_ev(r) for r in rows], state_cards(game), game.ruleset, names, game.revision
    )
    return {rows[i].index: with_urls(whys) for i, whys in found.items()}
