"""Kill attempts (W-9), batches of announcements and their triggers (W-15), the win
check (W-69, W-69a) and the Archangel cards (W-19)."""

from ...events import DEAD, PUBLIC
from ...phases import Phase
from ..base import ALIVE, DEAD_, FAKE, LAST_ACT, REMOVED

DIED, SURVIVED = "died", "survived"
LAST_ACTS = ("dirty_old_bastard", "benevolent_old_dame")


class BatchMixin:
    __slots__ = ()  # no state of its own: WitchhuntGame's slots hold it

    # --- W-9 ----------------------------------------------------------------------
    def attempt(self, name, cause, *, lynch=False, protected=(), killed=None, mercenary=None):
        """One kill attempt; returns DIED, FAKE, SURVIVED, or None when it does nothing
        (the target is no longer living, W-8a, or already killed this night, W-11)."""
        p = self.by_name[name]
        if p.status != ALIVE or (killed is not None and name in killed):
            return None
        outcome = self._attempt_case(p, cause, lynch, protected, mercenary, killed)
        self.log_mod({"attempt": name, "cause": cause, "outcome": outcome})
        if killed is not None and outcome != SURVIVED:
            killed[name] = cause
        return outcome

    def _attempt_case(self, p, cause, lynch, protected, mercenary, killed):
        if cause == "twilight":  # (a)
            p.lives = 0
            return self._death_kind(p)
        if lynch and p.type == "holy_villager" and self.holder_living("deacon"):  # (b) W-55
            return SURVIVED
        if mercenary is not None and p.type == mercenary:  # (c) W-57
            return SURVIVED
        if p.name in protected:  # (d)
            return SURVIVED
        if p.character == "pauper" and "pauper" not in p.used:  # (e) W-54
            p.used.add("pauper")
            if self.court_active and p.name not in self.court:
                self.court.append(p.name)
                self.tell_court(gone=self.gone_in_this_event(killed))
                return SURVIVED
        if p.lives:  # (f)
            p.lives -= 1
            return SURVIVED
        return self._death_kind(p)  # (g)

    def gone_in_this_event(self, killed):
        """W-73a: a result made during a day event is made at its moment in the event's
        batch, so a member who died earlier in the same event (the Loose Cannon's own
        attempt, a Musketeer's first shot) is no longer living when the Pauper joins: he is
        neither named nor told. At night a member killed earlier in the same resolution
        still lives (W-11b). Revision 2b games keep what this engine did under 2b: such a
        member was named and told (W-76; a 2b game that met it has announced so)."""
        if killed is None or self.night or self.revision == "2b":
            return ()
        return tuple(killed)

    def _death_kind(self, p):
        return FAKE if p.character == "magician" and not self.halftime_reached else DIED

    # --- W-15 ---------------------------------------------------------------------
    def run_batch(self, outcomes, *, phase=None, lynched=None, morning=False):
        """Announce `outcomes` [(name, DIED|FAKE|SURVIVED)] in order, then give cards, run
        the triggers (suicides form further batches at once), then on a morning the
        Magician's return and the Alarm, then one win check."""
        self._batch(outcomes, phase or self.phase, lynched)
        if self.over:
            return
        if morning:
            self.magician_return()
            self.sound_alarm()
        self.win_check()
        if morning and not self.over:
            self.stalemate_check()

    def _batch(self, outcomes, phase, lynched):
        outcomes = [(n, o) for n, o in outcomes if o is not None]
        cycle = Phase.parse(phase).number
        dead = []
        for name, outcome in outcomes:  # (1)
            p = self.by_name[name]
            if outcome == SURVIVED:
                self.emit("survival", PUBLIC, {"player": name}, phase)
                if not self.night:
                    self.survived_today.add(name)
                continue
            self.emit("death", PUBLIC, {"player": name}, phase)
            self.death_cycles.add(cycle)
            if outcome == FAKE:
                self.set_status(p, FAKE)
            elif p.character in LAST_ACTS and "last_act" not in p.used:
                self.set_status(p, LAST_ACT)
                self.last_act_until[name] = self.day  # until the end of night N (W-14)
            else:
                self.set_status(p, DEAD_)
            if not self.night:
                self.deaths_today.append(name)
            self.drop_votes_of(name)
            dead.append(p)
        for p in dead:  # (2) W-19 in announcement order, then Mystic cards (W-57)
            self.deal_card(p)
        for p in dead:
            if p.mystic and p.status in (DEAD_, LAST_ACT):
                p.mystic = False
                self.deal_card(p, mystic=True)
        for p in dead:  # (3)
            if lynched == p.name and self.holder_living("gravedigger"):  # W-36
                self.tell(
                    self.holders.get("gravedigger").name,
                    "gravedigger",
                    {"character": p.character, "type": p.type},
                    about=p.name,
                )
            self.court_check()
            partner = self.by_name.get(p.partner) if p.partner else None
            if partner is not None and partner.status == ALIVE:  # W-58
                outcome = self.attempt(partner.name, "lover", killed={})
                self._batch([(partner.name, outcome)], self.phase, None)
                if self.over:
                    return

    # --- W-19, W-57 ---------------------------------------------------------------
    def deal_card(self, p, mystic=False):
        if p.status == FAKE or p.status == REMOVED:
            return  # W-19: skipped; the card goes to the next dead in the order
        if not mystic:
            if self.cards_left <= 0:
                return
            self.cards_left -= 1
        if p.status == LAST_ACT:  # W-19, W-14a: the card is theirs and waits (lost on removal)
            p.cards_due += 1
            return
        self.give_card(p, 1)

    def give_card(self, p, n):
        p.cards += n
        self.tell(p.name, "archangel_card", p.cards)

    def enter_afterlife(self, p):
        """A last-act holder who used, declined or lost the act (W-14a)."""
        if p.status != LAST_ACT:
            return
        self.set_status(p, DEAD_)
        p.used.add("last_act")
        self.last_act_until.pop(p.name, None)
        n, p.cards_due = p.cards_due, 0
        for _ in range(n):  # W-19: the cards that waited, one result per card
            self.give_card(p, 1)

    # --- W-49: the Court disbands for good below three living members ---------------
    def court_check(self):
        if self.court_active and sum(self.by_name[m].status == ALIVE for m in self.court) < 3:
            self.disband_court()

    def disband_court(self):
        self.court_active = False
        self.court_at_disband = set(self.court)
        self.anarchist_night = self.day + 1 if self.night else self.day
        # W-73: the living members and the living Anarchist are told; the dead, offstage
        # and removed are not.
        told = [m for m in self.court if self.by_name[m].status == ALIVE]
        anarchist = self.holders.get("anarchist")
        if anarchist is not None and anarchist.status == ALIVE and anarchist.name not in told:
            told.append(anarchist.name)
        for name in told:
            self.tell(name, "court_disbanded", True)
        self.emit("court_disbanded", DEAD, {"members": sorted(self.court)})

    # --- W-41, W-61 ---------------------------------------------------------------
    def magician_return(self):
        mag = self.holders.get("magician")
        if mag is None or mag.status != FAKE or self.halftime_night != self.day - 1:
            return
        self.set_status(mag, ALIVE)
        mag.lives = 0
        self.announce({"event": "returned", "player": mag.name})

    def sound_alarm(self):
        if self.alarm_day is not None or self.holders.get("lookout") is None:
            return
        typ = self.alarm_type()
        group = self.seats_of_type(typ)
        dead = sum(p.status != ALIVE for p in group)
        if 2 * dead >= len(group):
            self.alarm_day = self.day
            self.announce({"event": "alarm"})
            self.log_mod({"alarm": typ})

    # --- W-69, W-69a --------------------------------------------------------------
    def win_check(self):
        witches = self._memo.get("witches")  # the living witches: kept until the living change
        if witches is None:
            witches = 0
            for p in self.seats_of_team("witches"):  # a third of the seats at most
                if p.status == ALIVE:
                    witches += 1
            self._memo["witches"] = witches
        villagers = len(self.living_seats) - witches
        if witches >= villagers:
            self.end("witches")
        elif witches == 0:
            self.end("village")

    def stalemate_check(self):
        k = self.options["stalemate_cycles"]
        last = self.day - 1  # the cycle judged this morning
        if (
            k
            and last >= k
            and not any(c in self.death_cycles for c in range(last - k + 1, last + 1))
        ):
            self.log_mod({"stalemate": k})
            # W-69a: announced publicly with its cause, after the morning's other news
            self.announce({"event": "stalemate", "cause": "cycles"})
            self.end("witches")

    def declare_stalemate(self):
        # W-72b: the moderator's stalemate ends the game at once, as W-69a's would
        self.announce({"event": "stalemate", "cause": "moderator"})
        self.end("witches")

    def end(self, team):
        self.over = True
        self.winner = team
        self.winners = sorted(p.name for p in self.seats if p.team == team)  # W-70
        self.emit("game_over", PUBLIC, {"winner": team, "winners": self.winners})
