"""The one place that knows both the models and the engine.

A game's state is the replay of its setup (seats and assignments) and its inputs; the
replayed state is cached by (game, number of inputs), so a page or a service replays only
when the game has changed since the last replay.
"""

import hashlib
import hmac
import json
import pickle

from django.conf import settings
from django.core.cache import cache
from django.db.models import Prefetch

from games.engine import DEAD, MODERATOR, PUBLIC, get_ruleset, new_game, parse_input
from games.engine.records import result

from .models import GameEvent, GameInput, Seat

CACHE_SECONDS = 24 * 3600
# Part of the cache key: a release that changes the engine's state or rules bumps it, so
# no process ever unpickles a state that an older engine wrote (rulings revision 2: 2).
STATE_VERSION = 2


def setup_record(game, seats=None):
    """The engine setup of a started game: ruleset, seed, options, players, lovers."""
    seats = (
        seats
        if seats is not None
        else list(game.seats.select_related("assignment").order_by("position"))
    )
    players = []
    for seat in seats:
        a = seat.assignment
        card = (
            {"role": a.role}
            if game.ruleset == "werewolf"
            else {"character": a.character, "type": a.type}
        )
        players.append({"name": seat.name, **card})
    record = {
        "ruleset": game.ruleset,
        "seed": game.seed,
        "options": game.options,
        "players": players,
    }
    if game.ruleset == "witchhunt":
        record["lovers"] = game.lovers
    return record


def game_record(game):
    """The game record (FORMAT.md): the setup and every input, in order."""
    record = setup_record(game)
    record["steps"] = list(
        GameInput.objects.filter(game=game).order_by("index").values_list("step", flat=True)
    )
    return record


def _key(game):
    # The seed and start time make the key unique to this game even if a database reset
    # reuses its primary key while a file or Redis cache survives.
    started = game.started_at.timestamp() if game.started_at else 0
    return f"engine-state:{STATE_VERSION}:{game.pk}:{game.seed}:{started}:{game.inputs_count}"


def _seal(data: bytes) -> bytes:
    # The cache (Redis in production) is another service: unpickling what it returns would
    # run whatever someone who can write to it put there. A keyed MAC proves we wrote it.
    mac = hmac.new(_mac_key(), data, hashlib.sha256).digest()
    return mac + data


def _open(blob) -> bytes | None:
    if not isinstance(blob, bytes) or len(blob) < 32:
        return None
    mac, data = blob[:32], blob[32:]
    if not hmac.compare_digest(mac, hmac.new(_mac_key(), data, hashlib.sha256).digest()):
        return None
    return data


def _mac_key() -> bytes:
    return hashlib.sha256(b"games.mapping.engine-state:" + settings.SECRET_KEY.encode()).digest()


def engine_state(game):
    """The engine's game for `game`, replayed from its inputs (or from the cache)."""
    data = _open(cache.get(_key(game)))
    if data is not None:
        return pickle.loads(data)
    state = _replay(game)
    remember_state(game, state)
    return state


def _replay(game):
    record = game_record(game)
    state, _ = new_game(record)
    for step in record["steps"]:
        state.apply(parse_input(state, step))
    return state


def replay_mismatch(game) -> str | None:
    """Where the replay of `game` under today's rules differs from the events it stored
    (and so announced), in words; None when the replay reproduces every stored event.

    The rows are what the players were told; a rules revision must not rewrite them, so a
    game that would now resolve differently is reported (games/migrations: the rules
    revision check) instead of being replayed silently into another result."""
    state = _replay(game)
    rows = list(
        GameEvent.objects.filter(game=game)
        .prefetch_related(Prefetch("recipients", queryset=Seat.objects.only("id", "name")))
        .order_by("index")
    )
    if len(state.events) < len(rows):
        return f"the replay has {len(state.events)} events where {len(rows)} were stored"
    for row, ev in zip(rows, state.events, strict=False):
        stored = (row.kind, row.phase, row.meeting or None, row.data)
        replayed = (ev.kind, ev.phase, ev.meeting or None, json.loads(json.dumps(ev.data)))
        if stored != replayed or _audience(row) != _audience_of(ev):
            return f"event {row.index} ({row.kind}, {row.phase}) differs"
    if len(state.events) > len(rows):
        return f"the replay has {len(state.events) - len(rows)} events that were never stored"
    return None


def _audience(row):
    if row.audience == GameEvent.Audience.SEATS:
        return sorted(s.name for s in row.recipients.all())
    return row.audience


def _audience_of(ev):
    return ev.to if ev.to in (PUBLIC, DEAD, MODERATOR) else sorted(ev.to)


def remember_state(game, state):
    data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    cache.set(_key(game), _seal(data), CACHE_SECONDS)


def record_result(game):
    """The `play_record` result of this game as it stands."""
    state = engine_state(game)
    return result(get_ruleset(game.ruleset), state, [])


def store_events(game, events, first_index, seats_by_name=None):
    """Persist engine events with their visibility; returns the GameEvent rows."""
    if not events:
        return []
    if seats_by_name is None:
        seats_by_name = {s.name: s for s in Seat.objects.filter(game=game)}
    rows = []
    for i, ev in enumerate(events):
        if ev.to in (PUBLIC, DEAD, MODERATOR):
            audience = ev.to
        else:
            audience = GameEvent.Audience.SEATS
        rows.append(
            GameEvent(
                game=game,
                index=first_index + i,
                kind=ev.kind,
                phase=ev.phase,
                audience=audience,
                meeting=ev.meeting or "",
                data=ev.data,
            )
        )
    GameEvent.objects.bulk_create(rows)
    if any(r.audience == GameEvent.Audience.SEATS for r in rows):
        # bulk_create sets primary keys on PostgreSQL and SQLite alike (Django >= 4.x).
        through = GameEvent.recipients.through
        links = [
            through(gameevent_id=row.pk, seat_id=seats_by_name[name].pk)
            for row, ev in zip(rows, events, strict=True)
            if row.audience == GameEvent.Audience.SEATS
            for name in ev.to
        ]
        through.objects.bulk_create(links)
    return rows
