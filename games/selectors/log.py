"""The game's event log for those who see the whole game (the moderator's desk, the
Witchhunt afterlife, the final reveal), grouped by phase."""

from ..models import Game, GameEvent


def events_all(game: Game) -> list[GameEvent]:
    """Every event in order, each with `seat_names`: the seats it was addressed to, in
    seat order (the log's audience column). Two queries however long the game: the names
    come from one join over the recipients' table, not a prefetch that lists every event's
    id and makes a Seat for each link."""
    events = list(GameEvent.objects.filter(game=game).order_by("index"))
    addressed = {}
    links = (
        GameEvent.recipients.through.objects.filter(gameevent__game=game)
        .order_by("seat__position", "seat__joined_at")
        .values_list("gameevent_id", "seat__name")
    )
    for event_id, name in links:
        addressed.setdefault(event_id, []).append(name)
    for event in events:
        event.seat_names = addressed.get(event.pk, [])
    return events


def by_phase(events) -> list[tuple[str, list]]:
    """Events grouped by the phase they describe, phases in order of first appearance."""
    groups = {}
    for e in events:
        groups.setdefault(e.phase, []).append(e)
    return list(groups.items())
