"""Character abilities: when each may be used (the boundary) and what it does at once.

Night abilities are stored as submissions (W-7) and resolved by night.py; day abilities
other than the Judge's pick and the Lookout's choice act at once as day events (W-15).
"""

from ...words import refusal
from ..base import ALIVE, LAST_ACT, NOT_LIVING
from .batch import LAST_ACTS
from .cards import CHARACTERS, TYPES

MUSKETEERS = {
    "pious_musketeer": lambda p: p.type == "holy_villager",
    "sneaky_musketeer": lambda p: p.type == "village_spy",
    "reckless_musketeer": lambda p: p.team == "witches",
}  # W-64: these are spared
PAGANS = ("moonlight_pagan", "twilight_pagan", "sunlight_pagan")
TRAVELERS = ("traveling_medic", "traveling_mercenary", "traveling_mystic")
TRAVEL_MEETING = (*TRAVELERS, "traveling_minstrel")  # who meets on the third night
# Refusals a random playout meets hundreds of times a game, made once (as NOT_LIVING).
DAY_ONLY = refusal("you can only use your ability by day")
NO_ABILITY = refusal("your character has no ability to use")
ABILITY_AT_NIGHT = refusal("you can only use your ability at night")
HALFTIME_ONLY = refusal("your ability works only on the Halftime night")
TRAVELERS_NIGHT = refusal("the Travelers meet on the third night")
KING_NIGHT = refusal("the King chooses his Court on the first night")
PALADIN_COURT = refusal("you can only give a life when the Court meets with three members")
NO_KILL_TONIGHT = refusal("you may not kill tonight")
BLACKSMITH_NIGHT = refusal("you can arm players only on the night after the Alarm sounds")
UNDERTAKER_NIGHT = refusal("the Undertaker looks on a night after the first")
# night abilities: character -> (min targets, max targets, self allowed)
NIGHT = {
    "priest": (1, 1, True),
    "inquisitor": (1, 1, True),
    "investigator": (1, 1, True),
    "king": (0, 4, True),
    "paladin": (1, 1, True),
    "vigilante": (1, 1, True),
    "anarchist": (1, 2, True),
    "hunter": (1, 1, True),
    "entertainer": (3, 3, False),
    "summoner": (3, 3, True),
    "assassin": (2, 2, True),
    "blacksmith": (1, 2, False),
    "traveling_medic": (1, 2, True),
    "traveling_mercenary": (1, 2, True),
    "traveling_mystic": (1, 2, True),
    "traveling_minstrel": (1, 1, False),
    "moonlight_pagan": (0, 0, True),
    "undertaker": (0, 0, True),
}
DAY_SHAPES = {
    "judge": (1, 1, [], []),
    "lookout": (0, 0, [], sorted(TYPES)),
    "loose_cannon": (1, 1, [], []),
    "wizard": (1, 1, sorted(CHARACTERS), []),
    "pious_musketeer": (1, 2, [], []),
    "sneaky_musketeer": (1, 2, [], []),
    "reckless_musketeer": (1, 2, [], []),
    "twilight_pagan": (1, 1, [], []),
    "sunlight_pagan": (0, 0, [], []),
    "templar": (0, 1, [], []),
    "captain": (0, 0, [], []),
}
HALFTIME = ("hunter", "entertainer", "summoner", "assassin")
ONCE = (
    "loose_cannon",
    "wizard",
    "twilight_pagan",
    "sunlight_pagan",
    "moonlight_pagan",
    "undertaker",
) + tuple(MUSKETEERS)


class AbilityMixin:
    __slots__ = ()  # no state of its own: WitchhuntGame's slots hold it

    # --- the shape of a seat's ability, for the role page's form -------------------------
    def ability_shape(self, seat):
        """(min targets, max targets, guesses, choices), or None for a card with no ability."""
        char = seat.character
        if char in LAST_ACTS:
            return (0, 1, [], [])
        if char in NIGHT:
            return NIGHT[char][:2] + ([], [])
        return DAY_SHAPES.get(char)

    # --- the boundary -------------------------------------------------------------------
    def check_ability(self, actor, inp):
        char = actor.character
        if inp.choice is not None or inp.guess is not None:
            # FORMAT (revision 3): a choice is the Lookout's, a guess the Wizard's alone.
            why = self.stray_keys_refusal(actor, inp)
            if why is not None:
                return why
        if actor.status == LAST_ACT and char in LAST_ACTS:  # W-14
            if inp.targets:
                return self.targets_refusal(inp.targets, 1, 1)
            return None
        if char in LAST_ACTS:
            return refusal("you can use that only when your death is announced")
        if actor.status != ALIVE:
            return NOT_LIVING
        if char in ONCE and char in actor.used:
            return refusal("you have already used your ability")
        if char in NIGHT:
            return self._check_night(actor, inp)
        if self.night:
            return DAY_ONLY
        check = getattr(self, "_day_" + char, None)
        if check is None:
            return NO_ABILITY
        return check(actor, inp)

    def _check_night(self, actor, inp):
        char = actor.character
        if not self.night:
            return ABILITY_AT_NIGHT
        n = self.day
        lo, hi, self_ok = NIGHT[char]
        if char in HALFTIME and self.halftime_night != n:
            return HALFTIME_ONLY
        if char in ("summoner", "assassin") and self.midnight:
            return refusal("your names were locked at midnight")
        # Only this character's condition is evaluated (a table of them all made each call
        # also asked the Court's queries for every night ability).
        ok = True
        if char in TRAVELERS or char == "traveling_minstrel":
            ok, why = n == 3, TRAVELERS_NIGHT
        elif char == "king":
            ok, why = n == 1, KING_NIGHT
        elif char == "paladin":
            ok = self.court_meets() and len(self.court_living()) == 3 and actor.name in self.court
            why = PALADIN_COURT
        elif char == "vigilante":
            ok, why = self.vigilante_night == n, NO_KILL_TONIGHT
        elif char == "anarchist":
            ok, why = self.anarchist_night == n, NO_KILL_TONIGHT
        elif char == "blacksmith":
            ok = self.alarm_day == n
            why = BLACKSMITH_NIGHT
        elif char == "undertaker":
            ok, why = n >= 2, UNDERTAKER_NIGHT
        if not ok:
            return why
        why = self.targets_refusal(inp.targets, lo, hi, self_ok=self_ok, actor=actor)
        if why is not None:
            return why
        if char == "paladin" and inp.targets[0] not in self.court:
            return refusal("%(target)s is not in the King's Court", {"target": inp.targets[0]})
        if char == "traveling_minstrel" and self.by_name[inp.targets[0]].character not in (
            TRAVELERS
        ):
            return refusal("%(target)s is not a fellow Traveler", {"target": inp.targets[0]})
        return None

    # A day ability's check, by character: the refusal, or None.
    def _day_judge(self, actor, inp):
        return self.targets_refusal(inp.targets, 1, 1)

    def _day_lookout(self, actor, inp):
        if self.day != 1:
            return refusal("the Lookout chooses the Alarm's type on Day 1")
        if inp.choice not in TYPES:
            return refusal("choose a player type for the Alarm")
        return self.targets_refusal(inp.targets, 0, 0)

    _day_loose_cannon = _day_judge

    def _day_wizard(self, actor, inp):
        if self.halftime_night is None or self.day <= self.halftime_night:
            return refusal("the Wizard can act only on a day after Halftime")
        if inp.guess not in CHARACTERS:
            return refusal("guess a character")
        return self.targets_refusal(inp.targets, 1, 1)

    def _day_musketeer(self, actor, inp):
        if any(
            p.status == ALIVE and p.character in MUSKETEERS and p is not actor for p in self.seats
        ):
            return refusal("you can act only as the last living Musketeer")
        return self.targets_refusal(inp.targets, 1, 2)

    _day_pious_musketeer = _day_sneaky_musketeer = _day_reckless_musketeer = _day_musketeer

    def _day_twilight_pagan(self, actor, inp):
        why = self.targets_refusal(inp.targets, 1, 1)
        if why is not None:
            return why
        t = inp.targets[0]
        if t not in self.survived_today and t != self.prev_lynch_survivor:  # W-66
            return refusal(
                "%(target)s's survival was not announced today or at yesterday's lynch",
                {"target": t},
            )
        return None

    def _day_sunlight_pagan(self, actor, inp):
        why = self.targets_refusal(inp.targets, 0, 0)
        if why is None and not self.deaths_today:
            return refusal("no death has been announced today")  # W-67
        return why

    def _day_templar(self, actor, inp):
        why = self.targets_refusal(inp.targets, 0, 1)
        if why is not None:
            return why
        if not inp.targets:
            if actor.revealed:
                return refusal("you have already revealed")
            return None
        if "templar" in actor.used:
            return refusal("you have already made your attack")
        target = self.by_name[inp.targets[0]]
        if target.character not in PAGANS or not target.revealed:
            return refusal("%(target)s is not a revealed Pagan", {"target": target.name})  # W-68
        return None

    def _day_captain(self, actor, inp):
        why = self.targets_refusal(inp.targets, 0, 0)
        if why is None and (self.alarm_day != self.day or actor.revealed):  # W-62
            return refusal("the Captain can reveal only on the day the Alarm sounds")
        return why

    # --- effects ------------------------------------------------------------------------
    def perform_ability(self, actor, inp):
        char = actor.character
        if actor.status == LAST_ACT:
            return self._last_act(actor, inp)
        if char in NIGHT:
            if char == "undertaker":  # W-53: at once
                actor.used.add(char)
                self.tell(
                    actor.name, "undertaker", {n: self._cards(n) for n in sorted(self.night_deaths)}
                )
                return
            self.subs[(actor.name, "ability")] = inp
            audience, meeting = self.ability_audience(actor)
            self.emit(
                "submitted",
                audience,
                {"actor": actor.name, "action": "ability", "targets": list(inp.targets)},
                meeting=meeting,
            )
            return
        if char in ("judge", "lookout"):  # changeable until the deadline (W-7)
            self.subs[(actor.name, "ability")] = inp
            self.emit(
                "submitted",
                (actor.name,),
                {
                    "actor": actor.name,
                    "action": "ability",
                    "targets": list(inp.targets),
                    "choice": inp.choice,
                },
            )
            return
        if char in ONCE:
            actor.used.add(char)
        getattr(
            self, "_do_" + char.split("_")[-1] if char.endswith("musketeer") else "_do_" + char
        )(actor, inp)

    def ability_audience(self, actor):
        """Who sees a night submission, and in which meeting: the actor, or the group it
        meets with (W-26a: the Innkeeper's group's checks, the Travelers' choices)."""
        group = self.innkeeper_group()
        if actor.name in group:
            return tuple(group), "innkeeper"
        if actor.character in TRAVEL_MEETING and self.day == 3:
            travelers = self.meetings().get("travelers", [actor.name])
            return tuple(travelers), "travelers"
        return (actor.name,), None

    def _cards(self, name):
        p = self.by_name[name]
        return {"character": p.character, "type": p.type}

    def reveal(self, actor):
        actor.revealed = True
        self.announce({"event": "reveal", "player": actor.name, "character": actor.character})

    def _last_act(self, actor, inp):
        if actor.character == "benevolent_old_dame" and inp.targets and self.night:
            self.subs[(actor.name, "ability")] = inp
            return
        if actor.character == "dirty_old_bastard" and self.night:
            self.subs[(actor.name, "ability")] = inp
            if not inp.targets:
                del self.subs[(actor.name, "ability")]
                self.enter_afterlife(actor)  # W-14a: declined
            return
        self.enter_afterlife(actor)
        if not inp.targets:
            return
        t = inp.targets[0]
        if actor.character == "benevolent_old_dame":  # W-32
            self.by_name[t].lives += 1
            self.announce({"event": "gift", "player": t, "from": actor.name})
            return
        self.run_batch([(t, self.attempt(t, "last_act", killed={}))])  # W-31
        self.after_day_event()

    def _do_loose_cannon(self, actor, inp):  # W-38
        self.reveal(actor)
        self.lynch(inp.targets[0], cannon=actor.name)

    def _do_wizard(self, actor, inp):  # W-48
        self.reveal(actor)
        target = self.by_name[inp.targets[0]]
        victim = target.name if target.character == inp.guess else actor.name
        self.log_mod({"wizard": actor.name, "target": target.name, "guess": inp.guess})
        self.run_batch([(victim, self.attempt(victim, "wizard", killed={}))])
        self.after_day_event()

    def _do_musketeer(self, actor, inp):  # W-64
        self.reveal(actor)
        spared = MUSKETEERS[actor.character]
        killed = {}
        outcomes = [
            (t, self.attempt(t, "musketeer", killed=killed))
            for t in inp.targets
            if not spared(self.by_name[t])
        ]
        self.run_batch(outcomes)
        self.after_day_event()

    def _do_twilight_pagan(self, actor, inp):  # W-66
        self.reveal(actor)
        t = inp.targets[0]
        self.run_batch([(t, self.attempt(t, "twilight", killed={}))])
        self.after_day_event()

    def _do_sunlight_pagan(self, actor, inp):  # W-67
        self.reveal(actor)
        # FORMAT: an object keyed by names has its keys sorted
        self.tell(actor.name, "sunlight", {n: self._cards(n) for n in sorted(self.deaths_today)})

    def _do_templar(self, actor, inp):  # W-68
        if not actor.revealed:
            self.reveal(actor)
        if not inp.targets:
            return
        actor.used.add("templar")
        t = inp.targets[0]
        outcome = self.attempt(t, "templar", killed={})
        if outcome == "died":
            self.tell(actor.name, "templar", self._cards(t), about=t)
        self.run_batch([(t, outcome)])
        self.after_day_event()

    def _do_captain(self, actor, inp):  # W-62
        self.reveal(actor)
        self.captain_day = self.day
