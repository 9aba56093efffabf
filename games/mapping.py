"""The one place that knows both the models and the engine.

A game's state is the replay of its setup (seats and assignments) and its inputs; the
replayed state is cached by (game, number of inputs), so a page or a service replays only
when the game has changed since the last replay.

The cached state keeps no event history: the events are GameEvent rows already, and in
the state they would make every load and store grow with the game (95% of a 1,115-step
game's pickle). A loaded state's `events` is an `EventTail`. Within a request
a state is loaded once (`engine_state` memoises it by the same key as the cache).
"""

import hashlib
import hmac
import json
import pickle

from asgiref.local import Local
from django.conf import settings
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import transaction
from django.db.models import Prefetch

from games.engine import DEAD, MODERATOR, PUBLIC, get_ruleset, new_game, parse_input, records

from .models import GameEvent, GameInput, Seat

CACHE_SECONDS = 24 * 3600
# Part of the cache key: a release that changes the engine's state or rules bumps it, so
# no process ever unpickles a state that an older engine wrote (rulings revision 2: 2;
# the state without its event history: 3; the game's own revision, W-76: 4).
STATE_VERSION = 4


def setup_record(game, seats=None):
    """The engine setup of a started game: ruleset, revision, seed, options, players,
    lovers. The revision is the game's own (W-76): it is replayed, and its record
    downloaded, under the rulings it started with, whatever revision the site runs now."""
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
        "revision": game.revision,
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


def _key(game, inputs=None):
    # The seed and start time make the key unique to this game even if a database reset
    # reuses its primary key while a file or Redis cache survives; the revision names the
    # rulings the state was played under (W-76).
    started = game.started_at.timestamp() if game.started_at else 0
    inputs = game.inputs_count if inputs is None else inputs
    return f"engine-state:{STATE_VERSION}:{game.pk}:{game.seed}:{game.revision}:{started}:{inputs}"


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


class HistoryInRows(LookupError):
    """An event from before the state was loaded was asked for: it is a GameEvent row."""


class EventTail:
    """A loaded state's `events`: the events applied since it was loaded, numbered on from
    `first` (those before are GameEvent rows). `len()`, `append` and slices from `first`
    on work as on the engine's list, so `apply` works; asking for an earlier event raises
    HistoryInRows, so no reader silently takes the history for empty."""

    __slots__ = ("first", "_new")

    def __init__(self, first: int, new=()):
        self.first = first
        self._new = list(new)

    def append(self, event):
        self._new.append(event)

    def extend(self, events):
        self._new.extend(events)

    def __len__(self):
        return self.first + len(self._new)

    def __getitem__(self, index):
        if not isinstance(index, slice):
            start = index + len(self) if index < 0 else index
            if start < self.first:
                raise HistoryInRows(f"event {start} is a GameEvent row")
            return self._new[start - self.first]
        start, stop, step = index.indices(len(self))
        if step != 1:
            raise HistoryInRows("only slices of the new events can be read")
        if stop <= start:
            return []
        if start < self.first:
            raise HistoryInRows(f"events {start} to {self.first - 1} are GameEvent rows")
        return self._new[start - self.first : stop - self.first]

    def __iter__(self):
        if self.first:
            raise HistoryInRows("the events before this state was loaded are GameEvent rows")
        return iter(self._new)

    def __reduce__(self):
        return (EventTail, (self.first, self._new))


# --- the per-request memo ----------------------------------------------------------------
# A page reads the state through several selectors, template tags and access helpers;
# each would pay a cache fetch, a MAC check and an unpickle. Inside a request (between
# Django's request signals; never in a worker or a command, whose runs are not bounded
# by one) a read state is kept by its cache key, which names the game's inputs count, so
# a later write is a new key. A state written in this request is not memoised until its
# transaction commits: a rolled-back write must not be read back.
_request = Local()
MEMO_SIZE = 8  # states kept in one request (a page reads one game; a bound all the same)


def _memo_start(**kwargs):
    _request.states = {}
    _request.unsettled = set()


def _memo_end(**kwargs):
    _request.states = None
    _request.unsettled = None


request_started.connect(_memo_start, dispatch_uid="games.mapping.memo_start")
request_finished.connect(_memo_end, dispatch_uid="games.mapping.memo_end")


def _memo():
    return getattr(_request, "states", None)


def _settled(key):
    unsettled = getattr(_request, "unsettled", None)
    if unsettled is not None:
        unsettled.discard(key)


def engine_state(game):
    """The engine's game for `game`, replayed from its inputs (or from the cache), once
    per request. Read it, never change it: it may be the request's other readers' too
    (a write starts from `engine_state_to_change`)."""
    key = _key(game)
    memo = _memo()
    if memo is not None and key in memo:
        return memo[key]
    state = _load(game, key)
    if memo is not None and key not in _request.unsettled:
        if len(memo) >= MEMO_SIZE:
            memo.pop(next(iter(memo)))
        memo[key] = state
    return state


def engine_state_to_change(game):
    """The engine's game for `game`, the caller's own to apply an input to (never the
    request's memoised one, which other readers may hold)."""
    return _load(game, _key(game))


def _load(game, key):
    data = _open(cache.get(key))
    if data is not None:
        return pickle.loads(data)
    # The key names inputs_count: an input stored since `game` was read is not this state.
    state = _replay(game, game.inputs_count)
    _store(key, state)
    state.events = EventTail(len(state.events))  # the history is in the rows
    return state


def _replay(game, inputs=None):
    """The replay of the game's stored inputs (its first `inputs` ones when given)."""
    record = game_record(game)
    state, _ = new_game(record)
    for step in record["steps"][:inputs]:
        state.apply(parse_input(state, step))
    return state


def engine_state_after(game, inputs: int):
    """The engine's game as it stood after its first `inputs` inputs, with every event of
    those (a fresh replay, never cached: the spectators' delay, games/spectators)."""
    return _replay(game, inputs)


def replay_mismatch(game) -> str | None:
    """Where the replay of `game` under its own revision of the rulings (W-76: today's
    engine, playing the revision the game started under) differs from the events it
    stored (and so announced), in words; None when the replay reproduces every stored
    event.

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
    """Cache `state` as `game`'s (call it once the input's events are stored as rows)."""
    key = _key(game)
    _store(key, state)
    if game.inputs_count:
        # The state before this input is nobody's once this one commits: dropped rather
        # than left to its timeout (Redis runs noeviction; a busy site has many inputs a day).
        previous = _key(game, game.inputs_count - 1)
        transaction.on_commit(lambda: cache.delete(previous))
    memo = _memo()
    if memo is not None:  # memoised by its first read after the commit (see the memo)
        memo.pop(key, None)
        _request.unsettled.add(key)
        transaction.on_commit(lambda: _settled(key))


def _store(key, state):
    events, state.events = state.events, EventTail(len(state.events))  # no history
    try:
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        state.events = events
    cache.set(key, _seal(data), CACHE_SECONDS)


def record_result(game):
    """The `play_record` result of this game as it stands. The result is built from every
    event, which the cached state does not keep: the inputs are replayed (the rows' JSON
    would not give the engine's data byte for byte)."""
    return records.result(get_ruleset(game.ruleset), _replay(game), [])


def store_events(game, events, first_index, seats_by_name=None):
    """Persist engine events with their visibility; returns the GameEvent rows."""
    if not events:
        return []
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
    # Saved with the game row by the caller (its input or its start).
    game.public_changes += sum(r.audience == GameEvent.Audience.PUBLIC for r in rows)
    if any(r.audience == GameEvent.Audience.SEATS for r in rows):
        if seats_by_name is None:  # only now: most inputs (a day vote) address nobody
            seats_by_name = {s.name: s for s in Seat.objects.filter(game=game)}
        # bulk_create sets primary keys on PostgreSQL and SQLite alike (Django >= 4.x).
        through = GameEvent.recipients.through
        # Who each private row tells, as members (services.inputs tells them, no query).
        for row, ev in zip(rows, events, strict=True):
            if row.audience == GameEvent.Audience.SEATS:
                row.recipient_user_ids = [seats_by_name[name].user_id for name in ev.to]
        links = [
            through(gameevent_id=row.pk, seat_id=seats_by_name[name].pk)
            for row, ev in zip(rows, events, strict=True)
            if row.audience == GameEvent.Audience.SEATS
            for name in ev.to
        ]
        through.objects.bulk_create(links)
    return rows
