"""The game's event log for those who see the whole game (the moderator's desk, the
Witchhunt afterlife, the final reveal), grouped by phase."""

from django.db.models import Prefetch, QuerySet

from ..models import Game, GameEvent, Seat


def events_all(game: Game) -> QuerySet:
    """Every event in order, with who could see it (the log's audience column)."""
    return (
        GameEvent.objects.filter(game=game)
        .prefetch_related(Prefetch("recipients", queryset=Seat.objects.only("id", "name")))
        .order_by("index")
    )


def by_phase(events) -> list[tuple[str, list]]:
    """Events grouped by the phase they describe, phases in order of first appearance."""
    groups = {}
    for e in events:
        groups.setdefault(e.phase, []).append(e)
    return list(groups.items())
