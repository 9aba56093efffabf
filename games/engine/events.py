"""Events: everything the engine says, each with who may see it.

`to` is the one visibility field every page and the leak tests read:
- PUBLIC: everyone, the living included;
- DEAD: the afterlife (and the moderator);
- MODERATOR: the moderator only (causes of death, W-9);
- a tuple of seat names: those seats (a private result, or a meeting's members at the
  time of the event).
The afterlife and the moderator see every event (W-17); see `views.py`.
"""

PUBLIC = "public"
DEAD = "dead"
MODERATOR = "moderator"


class Event:
    """One event, made field by field (`ev = Event()`, then its five fields) or whole by
    `Event.of`. The class has no Python __init__: a class call with one costs a frame of
    its own in CPython 3.11, and nearly every input makes an event or more."""

    __slots__ = ("kind", "phase", "to", "data", "meeting")

    @classmethod
    def of(cls, kind, phase, to, data, meeting=None):
        ev = cls()
        ev.kind = kind
        ev.phase = phase
        ev.to = to
        ev.data = data
        ev.meeting = meeting
        return ev

    def as_dict(self):
        out = {"kind": self.kind, "phase": self.phase, "data": self.data}
        out["to"] = self.to if isinstance(self.to, str) else list(self.to)
        if self.meeting:
            out["meeting"] = self.meeting
        return out

    @classmethod
    def from_dict(cls, d):
        to = d["to"] if isinstance(d["to"], str) else tuple(d["to"])
        return cls.of(d["kind"], d["phase"], to, d["data"], d.get("meeting"))

    def __repr__(self):
        return f"Event({self.kind!r}, {self.phase!r}, to={self.to!r}, {self.data!r})"
