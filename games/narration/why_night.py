"""The nights, and the kill attempts and deaths they explain: Witchhunt's W-9 cases and
W-10 sources and W-8a's lapses, Werewolf's pack, potions, Devil and Lovers (WW-5..WW-10).
See why.py."""

from games.engine import Phase

from .rulings import REASONS
from .why_day import Card, Reader
from .why_werewolf import WerewolfNight

# Abilities whose every target counts and which lapse whole (W-8a: the Entertainer's three;
# under revision 2b the Blacksmith's pair too); for the rest only the first always does (a
# Traveler's second only with the Minstrel, the Anarchist's only after a member, the
# Summoner's and Assassin's if unsaved), and this reading names the first's lapse alone.
WHOLE = frozenset({"entertainer", "blacksmith"})
# W-8a, revision 3 (W-76): where each name has an effect of its own, a name no longer
# living lapses alone and the others go on (revision 2b let the whole submission lapse):
# the Blacksmith's pair, a Traveler's two with the Minstrel's choice, the Anarchist's two.
# The Entertainer's three lapse whole in every revision.
EACH_NAME = frozenset(
    {"blacksmith", "traveling_medic", "traveling_mercenary", "traveling_mystic", "anarchist"}
)
# Names that may face nothing without a lapse: the King's additions join those living
# (W-49), the Summoner's and Assassin's saved names are not counted (W-46, W-47).
UNCOUNTED = frozenset({"king", "summoner", "assassin"})
OWN_PROTECTION = {
    # character: (reason, is it protected on night n, given the Halftime night)
    "gambler": ("protected_gambler", lambda n, half: n % 2 == 0),
    "recluse": ("protected_recluse", lambda n, half: n % 2 == 1),
    "hunter": ("protected_hunter", lambda n, half: n == half),
    "cupid": ("protected_cupid", lambda n, half: n == 1),
}


def night_number(phase):
    night = Phase.parse(phase)
    return night.number if night and night.is_night else None


class NightReader(WerewolfNight, Reader):
    def __init__(self, events, cards, ruleset, names, revision="2b"):
        super().__init__(events, cards, ruleset, names)
        self.revision = revision  # W-76: the rulings the game is played under
        self.pending = {}  # (phase, player) -> whys of attempts not yet announced
        self.attempts = []  # (player, cause, reason) of each kill attempt read, in order
        self.protected = set()
        self.vetoes = set()
        self.angels = {}  # this night's standing Angel votes: angel -> target
        self.counts, self.changed = {}, {}  # their tally (W-5, W-5a): per target
        self.archangel = False
        self.harlot_told = False
        self.halftime_night = None
        self.court, self.court_active, self.pauper_used = [], False, False
        self.moonlight = self._moonlight_nights()
        self.locked = {}  # Witchhunt: the targets locked at midnight, by group
        # Werewolf: the night's victim, hex and standing potions and kills
        self.victim = self.hexed = None
        self.subs = {}
        self.killed = {}  # name -> why, for the night's deaths

    def _moonlight_nights(self):
        """Nights the Moonlight Pagan acted: revealed the next morning (W-65)."""
        out = set()
        for ev in self.events:
            d = ev.data
            if ev.kind == "public" and d.get("character") == "moonlight_pagan":
                out.add(str(Phase.parse(ev.phase).previous()))  # the morning's night
        return out

    def card(self, name):
        return self.cards.get(name, Card())

    # --- a night begins and passes midnight -------------------------------------------
    def on_phase(self, i, ev):
        night = Phase.parse(ev.phase).is_night
        if not night and self.phase and Phase.parse(self.phase).is_night:
            self.werewolf_morning(i) if self.ww else self.lapses(i)
        super().on_phase(i, ev)
        if night:
            self.protected, self.vetoes, self.angels = set(), set(), {}
            self.counts, self.changed = {}, {}
            self.archangel = self.harlot_told = False
            self.victim = self.hexed = None
            self.subs, self.locked = {}, {}

    def on_midnight(self, i, ev):
        d = ev.data
        if self.ww:
            self.victim, self.hexed = d.get("victim"), d.get("hexed")
            self.add(i, self.why("ww_locks"))
            if self.hexed and self.role_of(self.hexed) != "werewolf":
                self.add(i, self.why("ww_hexed", player=self.hexed))
            return
        self.vetoes = set(d.get("vetoes") or ())
        self.locked = {g: d[g] for g in ("coven", "court") if d.get(g)}
        self.add(i, self.why("locks"))
        if self.vetoes:
            self.add(i, self.why("vetoed", players=sorted(self.vetoes)))
            for angel in [a for a, t in self.angels.items() if t in self.vetoes]:
                self.angel_vote(angel, None, i)  # W-18: void

    def on_afterlife(self, i, ev):
        d = ev.data
        if "protect" in d:
            self.angel_vote(d.get("by"), d["protect"], i)
        elif "archangel" in d:
            self.archangel = True

    def on_withdrawn(self, i, ev):
        actor = ev.to[0] if isinstance(ev.to, tuple) and ev.to else None
        what, choice = ev.data.get("what"), ev.data.get("choice")
        if what == "protect":
            self.angel_vote(actor, None, i)
        elif what in ("ability", "weapon") and not self.ww:
            self.subs.pop((actor, what), None)
        elif what == "ability":
            keys = [(actor, choice)] if choice else [(actor, c) for c in ("heal", "poison", None)]
            for key in keys:
                self.subs.pop(key, None)

    def on_submitted(self, i, ev):
        d = ev.data
        if self.ww and d.get("actor"):
            self.subs[(d["actor"], d.get("choice"))] = list(d.get("targets", []))
        elif not self.ww and Phase.parse(ev.phase).is_night:
            actor = d.get("actor") or (ev.to[0] if isinstance(ev.to, tuple) else None)
            what = d.get("action", "ability")
            targets = d.get("targets") or ([d["target"]] if d.get("target") else [])
            self.subs[(actor, what)] = targets

    def lapses(self, i):
        """W-8a: what the night's resolution skipped because its target had stopped living
        (removed since it was named: statuses change no other way by night)."""
        gone = set()
        for group, target in self.locked.items():
            if target in self.dead and target not in gone:
                gone.add(target)
                self.add(i, self.why("lapsed_" + group, player=target))
        for (actor, what), targets in self.subs.items():
            character = self.card(actor).character
            if character in UNCOUNTED:
                continue
            if self.revision != "2b" and character in EACH_NAME and what == "ability":
                self.name_lapses(i, actor, character, targets)
                continue
            counted = targets if character in WHOLE else targets[:1]
            lapsed = [t for t in counted if t in self.dead]
            if lapsed and actor not in self.dead:  # an actor's removal lapses it all (W-72)
                reason = "lapsed_weapon" if what == "weapon" else "lapsed"
                self.add(i, self.why(reason, player=lapsed[0], actor=actor))

    def name_lapses(self, i, actor, character, targets):
        """W-8a, revision 3: each counted name no longer living lapses alone (a Traveler's
        second counts only with the Minstrel's choice, W-57; the Anarchist's only when the
        first was a Court member when it disbanded, W-56); when every one did, the
        submission lapsed as a whole."""
        if actor in self.dead:  # an actor's removal lapses it all (W-72)
            return
        second = character == "blacksmith"
        if character.startswith("traveling_"):
            minstrel = self.subs.get((self.holder("traveling_minstrel"), "ability"))
            second = bool(minstrel) and minstrel[0] == actor
        elif character == "anarchist":
            second = bool(targets) and targets[0] in self.court
        counted = targets[:2] if second else targets[:1]
        lapsed = [t for t in counted if t in self.dead]
        if lapsed and len(lapsed) == len(counted):
            self.add(i, self.why("lapsed", player=lapsed[0], actor=actor))
            return
        for t in lapsed:
            self.add(i, self.why("lapsed_name", player=t, actor=actor))

    def on_court_disbanded(self, i, ev):
        self.court_active = False
        self.add(i, self.why("court_disbanded"))

    # --- the moderator's log: protections, the Court, kill attempts ----------------------
    def on_moderator(self, i, ev):
        d = ev.data
        if "attempt" in d:
            self.attempt(ev)
        elif "protected" in d:
            self.protected = set(d["protected"])
            self.add(i, self.why("protection", players=d["protected"]))
            if ev.phase in self.moonlight:
                self.add(i, self.why("moonlight"))
            elif self.archangel:
                self.add(i, self.why("archangel"))
        elif "court" in d:
            self.court, self.court_active = list(d["court"]), True
            self.add(i, self.why("court_forms", players=d["court"]))
        elif "captain" in d:
            self.add(i, self.why("captain"))
        elif "alarm" in d:
            self.add(i, self.why("alarm"))
        elif "stalemate" in d:
            self.add(i, self.why("stalemate_cycles"))
        elif "wizard" in d:
            self.add(i, self.why("wizard"))
        # A moderator's act ("act") is cited at the announcement it makes (W-72, W-72b).

    def on_info(self, i, ev):
        if ev.data.get("what") == "harlot":
            self.harlot_told = True
        super().on_info(i, ev)

    def on_public(self, i, ev):
        if ev.data.get("event") == "halftime":
            self.halftime_night = night_number(ev.phase)
        super().on_public(i, ev)

    def attempt(self, ev):
        """W-9's first matching case, read back from the outcome."""
        d = ev.data
        name, cause, outcome = d["attempt"], d.get("cause"), d.get("outcome")
        card = self.card(name)
        if outcome == "fake":
            reason = "fake"
        elif outcome != "survived":
            reason = "died_" + str(cause)
            if card.character == "pauper" and cause != "twilight":
                self.pauper_used = True  # W-54: it reached case (e) and did not save him
        elif (
            cause == "lynch"
            and card.type == "holy_villager"
            and self.holder("deacon") not in (None, *self.dead)
        ):
            reason = "deacon"  # (b) W-55
        elif (
            cause == "mercenary" and card.type == self.card(self.holder("traveling_mercenary")).type
        ):
            reason = "mercenary_type"  # (c) W-57
        elif Phase.parse(ev.phase).is_night and name in self.protected:
            reason = self.protection(name, ev.phase)  # (d) W-10
        elif card.character == "pauper" and not self.pauper_used:
            self.pauper_used = True  # (e) W-54
            if self.court_active and name not in self.court:
                self.court.append(name)
                reason = "pauper"
            else:
                reason = "extra_life_lynch" if cause == "lynch" else "extra_life"
        else:
            reason = "extra_life_lynch" if cause == "lynch" else "extra_life"  # (f)
        self.attempts.append((name, cause, reason))
        why = self.why(reason if reason in REASONS else "died", player=name)
        self.pending.setdefault((ev.phase, name), []).append(why)

    def protection(self, name, phase):
        """Which of W-10's sources protected `name`, in W-10's order."""
        n = night_number(phase)
        direct = self.direct_sources(phase, n)
        if name in direct:
            return direct[name]
        partner = self.card(name).partner
        if partner and partner in direct:
            return "protected_lover"  # W-58
        if self.card(name).character == "harlot" and self.harlot_told:
            return "protected_harlot"  # W-60
        harlot = self.holder("harlot")
        if harlot and self.card(harlot).partner == name and self.harlot_told:
            return "protected_harlot_partner"
        return "protected"

    def direct_sources(self, phase, n):
        if phase in self.moonlight:  # W-65: the vetoed, and nobody else directly
            return {v: "protected_moonlight" for v in self.vetoes}
        out = {}
        for name in self.protected:
            char = self.card(name).character
            if char in OWN_PROTECTION and OWN_PROTECTION[char][1](n, self.halftime_night):
                out[name] = OWN_PROTECTION[char][0]
        pick = self.angels_pick()
        if pick in self.protected and pick not in out:
            out[pick] = "protected_angels"
        return out

    def angel_vote(self, angel, target, step):
        """An Angel's vote moves (or, with no target, lapses): it leaves its old target
        before it reaches the new one (W-5a); an identical repeat changes nothing."""
        old = self.angels.get(angel)
        if old == target:
            return
        if old is not None:
            self.counts[old] -= 1
            self.changed[old] = (step, 0)
            del self.angels[angel]
        if target is not None:
            self.angels[angel] = target
            self.counts[target] = self.counts.get(target, 0) + 1
            self.changed[target] = (step, 1)

    def angels_pick(self):
        """The Angels' plurality (W-5): most votes, then the count that changed earliest."""
        voted = [t for t, n in self.counts.items() if n > 0]
        if not voted:
            return None
        return min(voted, key=lambda t: (-self.counts[t], self.changed[t]))

    def died(self, name):
        super().died(name)
        for angel in [a for a, t in self.angels.items() if name in (a, t)]:
            self.angel_vote(angel, None, self.i)  # W-72a, W-8a
        self.subs = {k: v for k, v in self.subs.items() if k[0] != name}  # W-72

    # --- announcements --------------------------------------------------------------
    def on_death(self, i, ev):
        name = ev.data.get("player")
        whys = self.pending.pop((ev.phase, name), None)
        if whys is None and self.ww:
            whys = [self.werewolf_death(name, ev.phase)]
        for w in whys or ():
            self.add(i, w)
        self.died(name)

    def on_survival(self, i, ev):
        for w in self.pending.pop((ev.phase, ev.data.get("player")), ()):
            self.add(i, w)
