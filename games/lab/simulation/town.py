"""The town's public record, read once per game for every bot: votes, lynches, deaths and
the cards made public. Only public events go in (the views' shared `public` list), so
what it concludes is what any seat could conclude."""

from games.engine import EVIL, HOLY, ROLES


class Town:
    __slots__ = (
        "public",
        "_cursor",
        "votes",
        "lynched",
        "night_dead",
        "shown",
        "deaths",
        "halftime",
        "alarm",
        "today",
        "_scores",
        "_tally",
    )

    def __init__(self, public):
        self.public = public  # the shared list of public events, appended by the Board
        self._cursor = 0
        self.votes = {}  # day -> {voter: target}: each voter's last vote that day
        self.lynched = []  # (day, name)
        self.night_dead = set()  # killed at night: the Coven or pack kills non-members
        self.shown = {}  # name -> "village" | "evil", from a card made public
        self.deaths = 0  # deaths announced so far
        self.halftime = None  # the night Halftime was announced (W-27)
        self.alarm = False  # the Alarm has sounded (W-61)
        self.today = 0  # the last day with a vote: max(votes)
        self._scores = None
        self._tally = (None, None)

    def tally(self, votes):
        """count_votes of the public vote count `votes` (SeatView.votes: one dict per sync,
        never changed), counted once for every bot that reads it."""
        if self._tally[0] is not votes:
            self._tally = (votes, count_votes(votes))
        return self._tally[1]

    def read(self):
        events = self.public
        if self._cursor == len(events):
            return
        for event in events[self._cursor :]:
            kind, data = event.kind, event.data
            if kind == "vote":
                day = _day(event.phase)
                self.votes.setdefault(day, {})[data["voter"]] = data["target"]
                if day > self.today:
                    self.today = day
            elif kind == "unvote":
                self.votes.get(_day(event.phase), {}).pop(data["voter"], None)
            elif kind == "lynch":
                self.lynched.append((_day(event.phase), data["target"]))
            elif kind == "death":
                self.deaths += 1
                if event.phase.startswith("night"):
                    self.night_dead.add(data["player"])
            elif kind == "public":
                self._public(data, event.phase)
        self._cursor = len(events)

    def _public(self, data, phase):
        what = data.get("event")
        if what == "halftime":
            self.halftime = _day(phase)
        elif what == "alarm":
            self.alarm = True
        elif what == "card":  # Werewolf's card on death (WW-3)
            self.shown[data["player"]] = "evil" if ROLES[data["role"]][0] == EVIL else "village"
        elif what == "reveal" and data.get("character") in HOLY:  # a Holy card is Village's
            self.shown[data["player"]] = "village"

    def team_seen(self, name):
        """What the public record says of `name`'s team: "village", "evil" or None."""
        if name in self.shown:
            return self.shown[name]
        if name in self.night_dead:
            return "village"  # most likely: the night's killers spare their own
        return None

    def suspicion(self):
        """{voter: score}: +1 for each finished day's vote on a player later seen as
        Village, -1 on one seen as evil (voting a villager is what a Witch wants)."""
        self.read()
        today = self.today
        key = (today, len(self.night_dead), len(self.shown))  # what the scores depend on
        if self._scores is None or self._scores[0] != key:
            scores = {}
            shown, night_dead = self.shown, self.night_dead
            for day, votes in self.votes.items():
                if day == today:
                    continue
                for voter, target in votes.items():
                    # team_seen(target), inlined: a score reads every vote of the game
                    seen = shown.get(target) or ("village" if target in night_dead else None)
                    if seen is not None:
                        scores[voter] = scores.get(voter, 0) + (1 if seen == "village" else -1)
            self._scores = (key, scores)
        return self._scores[1]


def count_votes(votes):
    """({target: votes}, the target with the most votes, the earliest cast of those tied,
    or None) of {voter: target}."""
    counts = {}  # in the order each target was first voted for (a Counter's, made cheaper)
    get = counts.get
    for target in votes.values():
        counts[target] = get(target, 0) + 1
    return counts, (max(counts, key=get) if counts else None)


_DAYS = {}  # phase name -> its number: parsed once


def _day(phase):
    day = _DAYS.get(phase)
    if day is None:
        day = _DAYS[phase] = int(phase.rsplit(" ", 1)[1])
    return day
