"""A game whose hidden parts raise: the honesty test hands it to the lab's views and bots.

`TrapGame(game, viewer)` is the whole state behind a guard, as one seat (or, with
viewer None, the Board routing events) reaches it. It lets through what any seat may
know (the phase, the living, the public vote count, the engine's refusal, which the view
turns into a yes or no) and the viewer's own seat; another seat's cards or status, any other part of
the state, and the contents of an event are refused. An event's contents open only for a
seat `engine.views.can_see` lets see it, at the moment it is handed over.
"""

from games.engine.views import can_see


class HiddenInformation(AssertionError):
    """A bot (or its view) reached for something its seat may not see."""


PUBLIC_STATE = frozenset(
    {"RULESET", "day", "night", "midnight", "phase", "over", "living_names", "votes", "refusal"}
)


class TrapEvent:
    """An event sealed: its audience (`to`) is readable, its contents are not."""

    __slots__ = ("_event",)

    def __init__(self, event):
        object.__setattr__(self, "_event", event)

    @property
    def to(self):
        return self._event.to

    def __getattr__(self, name):
        raise HiddenInformation(f"read {name!r} of a sealed {self._event.kind!r} event")


class TrapSeat:
    """Another seat: its name alone. The viewer's own seat passes everything through."""

    __slots__ = ("_seat", "_own")

    def __init__(self, seat, own):
        object.__setattr__(self, "_seat", seat)
        object.__setattr__(self, "_own", own)

    def __getattr__(self, name):
        if name in ("name", "idx") or self._own:
            return getattr(self._seat, name)
        raise HiddenInformation(f"read {name!r} of another seat ({self._seat.name})")


class TrapGame:
    def __init__(self, game, viewer):
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_viewer", viewer)
        object.__setattr__(self, "_sealed", [])
        object.__setattr__(self, "opened", 0)

    def __getattr__(self, name):
        if name in PUBLIC_STATE:
            return getattr(self._game, name)
        raise HiddenInformation(f"read the game's {name!r} (as {self._viewer})")

    def __setattr__(self, name, value):
        raise HiddenInformation(f"wrote the game's {name!r}")

    @property
    def events(self):
        sealed, real = self._sealed, self._game.events
        sealed.extend(TrapEvent(e) for e in real[len(sealed) :])
        return sealed

    @property
    def seats(self):
        return [TrapSeat(s, s.name == self._viewer) for s in self._game.seats]

    def seat(self, name):
        seat = self._game.seat(name)
        return None if seat is None else TrapSeat(seat, name == self._viewer)

    def _own(self, seat):
        if not isinstance(seat, TrapSeat) or not seat._own:
            raise HiddenInformation("asked the engine about another seat")
        return seat._seat

    def ability_shape(self, seat):
        return self._game.ability_shape(self._own(seat))

    def sees_everything(self, seat):
        return self._game.sees_everything(self._own(seat))

    def open_for(self, sealed, name):
        """The event's contents for seat `name` (None: everyone), if it may see them now."""
        event = sealed._event
        game = self._game
        afterlife = name is not None and game.sees_everything(game.seat(name))
        if not can_see(event, name, afterlife=afterlife):
            raise HiddenInformation(f"handed {name} a {event.kind!r} event for {event.to!r}")
        object.__setattr__(self, "opened", self.opened + 1)
        return event


def trap(game, name):
    """play_game's `handle`: the trapped game as seat `name` (None: the Board) reaches it."""
    return TrapGame(game, name)
