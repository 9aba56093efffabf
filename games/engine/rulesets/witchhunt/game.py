"""The Witchhunt game: its state, the legality of every input (W-8) and the day."""

from ...events import DEAD, PUBLIC
from ...order import sha_key
from ...votes import new_tally
from ...words import refusal
from ..base import ALIVE, DEAD_, FAKE, LAST_ACT, NOT_LIVING, REMOVED, Game, Seat
from .abilities import AbilityMixin
from .batch import DIED, SURVIVED, BatchMixin
from .cards import TYPES
from .night import NightMixin

AFTERLIFE_ONLY = refusal("only the dead in the afterlife can do that")
# The commonest refusals of a random playout, made once (as NOT_LIVING): a check returns
# one of these hundreds of times a game, without a call each time.
NO_WEAPON = refusal("you have no weapon to use")
NO_CARD = refusal("you hold no Archangel card")
NIGHT_ONLY = refusal("you can only do that at night")
DEMONS_VETO = refusal("only Demons can do that; Angels protect")
NOT_IN_COVEN = refusal("you are not in the Coven")
NOT_IN_COURT = refusal("you are not in the King's Court")
TARGET_LOCKED = refusal("the target was locked at midnight")
NOTHING_TO_SAVE = refusal("there is nothing to save tonight")
# Whole sentences, one a vote, so that a translation need not glue a word in.
NO_VOTE_TO_WITHDRAW = {
    "coven": refusal("you have no coven vote to withdraw"),
    "court": refusal("you have no court vote to withdraw"),
    "veto": refusal("you have no veto vote to withdraw"),
    "protect": refusal("you have no protect vote to withdraw"),
    "save": refusal("you have no save vote to withdraw"),
}
NOTHING_TO_WITHDRAW = {  # the rest of WITHDRAWABLE
    "ability": refusal("you have no ability to withdraw"),
    "weapon": refusal("you have no weapon use to withdraw"),
    "pack": refusal("you have no pack to withdraw"),
}


class WSeat(Seat):
    __slots__ = (
        "character",
        "type",
        "team",
        "lives",
        "cards",
        "cards_due",
        "mystic",
        "used",
        "revealed",
        "partner",
        "weapon_night",
    )

    def __init__(self, name, idx, character, typ):
        self.name = name  # Seat's fields, set here: super() costs a call and a frame
        self.idx = idx
        self.status = ALIVE
        self.character = character
        self.type = typ
        self.team = TYPES[typ][0]
        self.lives = 1 if character == "survivalist" else 0  # W-29
        self.cards = 0
        self.cards_due = 0
        self.mystic = False
        self.used = set()
        self.revealed = False
        self.partner = None
        self.weapon_night = None

    @property
    def in_afterlife(self):
        return self.status == DEAD_


class WitchhuntGame(AbilityMixin, NightMixin, BatchMixin, Game):
    RULESET = "witchhunt"
    # How a night begins without the day's end (no lynch, no Judge): the role page's
    # preview of what a seat may do tonight (engine/options.py).
    NIGHT_START = "begin_night"
    __slots__ = (  # the state's attributes (Game's __slots__ says why)
        "holders",
        "cards_left",
        "halftime_reached",
        "halftime_night",
        "spies_announced",
        "removed_while_fake",
        "began_coven",
        "began_holy",
        "juniors_joined",
        "court",
        "court_active",
        "court_at_disband",
        "anarchist_night",
        "vigilante_night",
        "alarm_day",
        "lookout_choice",
        "captain_day",
        "last_act_until",
        "investigated",
        "investigator_done",
        "night_deaths",
        "death_cycles",
        "morning_public",
        "prev_lynch_survivor",
        "lynch_survivor",
        "weapon_user",
        "subs",
        "lynched_today",
        "survived_today",
        "deaths_today",
        "coven_votes",
        "court_votes",
        "angels",
        "demons",
        "spy_saves",
        "angel_saves",
        "demon_saves",
        "vetoes",
        "archdemon_vetoes",
        "archangel_spent",
        "locked_coven",
        "locked_court",
        "summoner_names",
        "assassin_names",
    )

    def __init__(self, seed, options, players, lovers):
        seats = [WSeat(p["name"], i, p["character"], p["type"]) for i, p in enumerate(players)]
        super().__init__(seed, options, seats)
        for a, b in lovers:
            self.by_name[a].partner = b
            self.by_name[b].partner = a
        self.holders = {s.character: s for s in seats}
        n_cards = options["archangel_cards"]
        self.cards_left = len(seats) // 10 if n_cards is None else n_cards  # W-19
        self.halftime_reached = False
        self.halftime_night = None
        self.spies_announced = False
        self.removed_while_fake = None  # W-72a: a fake-dead Magician removed, still "waiting"
        self.began_coven = frozenset()  # W-11a: as the night began (set as each night begins)
        self.began_holy = []
        self.juniors_joined = False
        self.court = []
        self.court_active = False
        self.court_at_disband = set()
        self.anarchist_night = None
        self.vigilante_night = None
        self.alarm_day = None
        self.lookout_choice = None
        self.captain_day = None
        self.last_act_until = {}
        self.investigated = set()
        self.investigator_done = False
        self.night_deaths = []
        self.death_cycles = set()
        self.morning_public = []
        self.prev_lynch_survivor = None
        self.lynch_survivor = None
        self.weapon_user = None
        self.subs = {}
        self.reset_day()
        self.reset_night()
        self.enter_phase(self.day, False)
        self.emit("phase", PUBLIC, {"phase": self.phase})
        if options["public_setup"]:  # W-23
            counts = {}
            for s in seats:
                counts[s.type] = counts.get(s.type, 0) + 1
            self.emit("setup", PUBLIC, {"characters": sorted(self.holders), "types": counts})
        self.day_one_knowledge()

    # --- queries ----------------------------------------------------------------------
    def holder(self, char):
        return self.holders.get(char)

    def holder_name(self, char):
        p = self.holders.get(char)
        return p.name if p is not None else None

    def holder_living(self, char):
        p = self.holders.get(char)
        return p is not None and p.status == ALIVE

    def coven_members(self):  # W-25
        return self._coven()[0]

    def _coven(self):
        # (seats, names): asked by every Coven vote's check, so kept (in `_memo`, which the
        # roster drops) until the living change or the Juniors join.
        joined = self.juniors_joined
        memo = self._memo.get("coven")
        if memo is None or memo[0] != joined:
            witches = self._fixed.get("witch_seats")  # a type never changes: kept in `_fixed`
            if witches is None:
                witches = self._fixed["witch_seats"] = tuple(
                    [p for p in self.seats if p.type in ("elder_witch", "junior_witch")]
                )
            members = tuple(  # in seat order, as the living are
                [p for p in witches if p.status == ALIVE and (joined or p.type == "elder_witch")]
            )
            memo = self._memo["coven"] = (joined, (members, tuple(p.name for p in members)))
        return memo[1]

    def seats_of_type(self, typ):
        # Asked each night and morning; a type never changes, so kept in `_fixed`.
        seats = self._fixed.get(typ)
        if seats is None:
            seats = self._fixed[typ] = tuple([p for p in self.seats if p.type == typ])
        return seats

    def seats_of_team(self, team):
        # As seats_of_type: a team never changes. In seat order.
        key = "team:" + team
        seats = self._fixed.get(key)
        if seats is None:
            seats = self._fixed[key] = tuple([p for p in self.seats if p.team == team])
        return seats

    def court_meets(self):
        return self.night and self.court_active and self.day % 2 == 0

    def court_living(self):
        return [m for m in self.court if self.by_name[m].status == ALIVE]

    def alarm_type(self):
        if self.lookout_choice is not None:
            return self.lookout_choice
        return min(TYPES, key=lambda t: sha_key(self.seed, "lookout", t))  # W-61

    def afterlife(self):
        return [p for p in self.seats if p.status == DEAD_]

    def sees_everything(self, seat):
        """W-17: the afterlife sees the whole game; the offstage and removed do not."""
        return seat.status == DEAD_

    def meetings(self):
        """W-26a: the private threads open now, {key: members}, each for its living members
        and only while its group exists."""
        living = [p for p in self.seats if p.status == ALIVE]
        out = {"coven": [p.name for p in self.coven_members()]}
        if not self.juniors_joined:
            out["juniors"] = [p.name for p in living if p.type == "junior_witch"]
        out["spies"] = [p.name for p in living if p.type == "village_spy"]
        pairs = []
        for p in self.seats:
            if p.partner and p.idx < self.by_name[p.partner].idx:
                pairs.append((p.name, p.partner))
        for i, pair in enumerate(pairs, 1):
            out[f"lovers-{i}"] = [n for n in pair if self.by_name[n].status == ALIVE]
        out["musketeers"] = [p.name for p in living if p.character.endswith("_musketeer")]
        if self.court_active:
            out["court"] = [m for m in self.court if self.by_name[m].status == ALIVE]
        if self.night and self.day == 3:  # W-57: the Travelers meet on Night 3
            out["travelers"] = [p.name for p in living if p.character.startswith("traveling_")]
        if self.night:
            out["innkeeper"] = self.innkeeper_group()  # W-43: each night the Innkeeper lives
        return {k: v for k, v in out.items() if v}

    def standing(self, name):
        """What seat `name` has submitted and may still change: {what: target(s)}."""
        out = {}
        if self.night:
            tallies = (
                ("coven", self.coven_votes),
                ("court", self.court_votes),
                ("protect", self.angels),
                ("veto", self.demons),
                ("save", self.spy_saves),
                ("save", self.angel_saves),
                ("save", self.demon_saves),
            )
        else:  # last night's tallies stay until the next night begins; they are not standing
            tallies = (("vote", self.votes),)
        for what, tally in tallies:
            if name in tally.votes:
                out[what] = tally.votes[name]
        for what in ("ability", "weapon"):
            sub = self.subs.get((name, what))
            if sub is not None:
                out[what] = sub.to_step()
        return out

    # --- W-24: what every group learns at Day 1 ----------------------------------------
    def day_one_knowledge(self):
        by_type = {}
        for p in self.seats:
            by_type.setdefault(p.type, []).append(p.name)
        elders = by_type.get("elder_witch", [])
        juniors = by_type.get("junior_witch", [])
        spies = by_type.get("village_spy", [])
        groups = {
            "elder_witch": (elders, juniors + spies, len(juniors)),
            "junior_witch": (juniors, elders + spies, len(elders)),
            "village_spy": (spies, [], 0),
        }
        musketeers = [p.name for p in self.seats if p.character.endswith("_musketeer")]
        for p in self.seats:
            group = groups.get(p.type)
            if group is not None:
                members, mixed, n = group
                self._allies(p.name, p.type, [m for m in members if m != p.name], mixed, n)
            if p.type == "village_lover":
                self._allies(p.name, "village_lover", [p.partner], [], 0)
            if p.name in musketeers:
                self._allies(p.name, "musketeers", [m for m in musketeers if m != p.name], [], 0)
            if p.character == "acolyte":  # W-34
                self.tell(p.name, "acolyte", self.holder_name("priest"))
            elif p.character == "nun":  # W-45
                self.tell(p.name, "nun", self.holder_name("bishop"))
            elif p.character == "oracle":
                self.tell(
                    p.name,
                    "oracle",
                    {
                        c: self.holders[c].name  # keys sorted (FORMAT)
                        for c in ("assassin", "entertainer", "hunter", "summoner")
                        if c in self.holders
                    },
                )

    def _allies(self, to, group, known, mixed, mixed_witches):
        self.tell(
            to,
            "allies",
            {
                "group": group,
                "known": sorted(known),
                "mixed": sorted(mixed),
                "mixed_witches": mixed_witches,
            },
        )

    # --- resets -------------------------------------------------------------------------
    def reset_day(self):
        self.votes = new_tally(self.seed, self.phase)  # W-5a
        self.lynched_today = None
        self.survived_today = set()
        self.deaths_today = []
        self.prev_lynch_survivor = self.lynch_survivor
        self.lynch_survivor = None
        self.subs = {}

    def reset_night(self):
        phase = self.phase
        seed = self.seed
        new = new_tally
        self.coven_votes = new(seed, phase)  # W-5a: ties by the night's SHA order
        self.court_votes = new(seed, phase)
        self.angels = new(seed, phase)
        self.demons = new(seed, phase)
        self.spy_saves = new(seed, phase)
        self.angel_saves = new(seed, phase)
        self.demon_saves = new(seed, phase)
        self.vetoes = set()
        self.archdemon_vetoes = set()
        self.archangel_spent = False
        self.locked_coven = None
        self.locked_court = None
        self.summoner_names = None
        self.assassin_names = None
        self.subs = {}

    # --- the boundary: may this input be applied now? (W-8) ------------------------------
    # each action's check and effect (Game.DIRECT_ACTIONS); check_action and perform: the rest
    DIRECT_ACTIONS = {
        "vote": ("check_vote", "perform_vote"),
        "unvote": ("check_vote", "perform_vote"),
        "ability": ("check_ability", "perform_ability"),
        "withdraw": ("check_withdraw", "perform_withdraw"),
        "coven": ("check_meeting", "perform_meeting"),
        "court": ("check_meeting", "perform_meeting"),
    }

    def check_action(self, actor, inp):
        a = inp.action
        if a == "pack":
            return refusal("there is no pack in Witchhunt")
        if a == "weapon":
            if not self.night:
                return refusal("you can only use a weapon at night")
            if actor.status != ALIVE:
                return NOT_LIVING
            if actor.weapon_night is None or "weapon" in actor.used:
                return NO_WEAPON
            if actor.weapon_night >= self.day:
                return refusal("a weapon can be used from the night after it was given")
            return self.target_refusal(inp.target)
        if a == "give_card":
            if actor.status != DEAD_:
                return AFTERLIFE_ONLY
            if actor.cards < 1:
                return NO_CARD
            target = self.seat(inp.target)
            if target is None or target.status != DEAD_ or target is actor:
                return refusal(
                    "%(target)s is not another player in the afterlife", {"target": inp.target}
                )
            return None
        if not self.night:
            return NIGHT_ONLY
        if a == "save":
            return self.check_save(actor, inp)
        if actor.status != DEAD_:
            return AFTERLIFE_ONLY
        angel = actor.team == "village"
        if a in ("protect", "archangel") and not angel:
            return refusal("only Angels can do that; Demons veto")
        if a in ("veto", "archdemon") and angel:
            return DEMONS_VETO
        if a == "protect":
            why = self.target_refusal(inp.target)
            if why is None and self.midnight and inp.target in self.vetoes:
                if not self.archangel_spent:
                    return refusal(
                        "%(target)s was vetoed at midnight", {"target": inp.target}
                    )  # W-18
            return why
        if a == "veto":
            if self.midnight:
                return refusal("the veto was locked at midnight")
            return self.target_refusal(inp.target)
        if a == "archangel":  # W-20
            if actor.cards < 1:
                return NO_CARD
            if not self.midnight:
                return refusal("an Archangel card can only be spent after midnight")
            if self.archangel_spent:
                return refusal("the vetoes are already ignored tonight")
            return None
        if a == "archdemon":
            if actor.cards < 1:
                return NO_CARD
            if self.midnight:
                return refusal("an Archdemon veto must be made before midnight")
            return self.target_refusal(inp.target)
        return None

    def check_meeting(self, actor, inp):
        """A Coven or a Court vote (check_action's branch, which `apply` takes directly)."""
        a = inp.action
        if not self.night:
            return NIGHT_ONLY
        if actor.status != ALIVE:
            return NOT_LIVING
        if a == "coven" and actor not in self._coven()[0]:
            return NOT_IN_COVEN
        if a == "court":
            # Membership first: a non-member gets one reason whether or not a Court
            # exists or meets, so a refusal never reveals a King (W-8).
            if actor.name not in self.court_living():
                return NOT_IN_COURT
            if not self.court_meets():
                return refusal("the King's Court does not meet tonight")
        if self.midnight:
            return TARGET_LOCKED
        return self.target_refusal(inp.target)

    def check_save(self, actor, inp):
        if self.halftime_night != self.day:
            return NOTHING_TO_SAVE
        if not self.midnight:
            return refusal("save votes are taken after midnight")
        if actor.status == ALIVE and actor.type == "village_spy":
            names = self.assassin_names
        elif actor.status == DEAD_:
            names = self.summoner_names
        else:
            return refusal("you have no save vote")
        if not names or inp.target not in names:
            return refusal(
                "%(target)s is not one of the names you may save", {"target": inp.target}
            )
        return self.target_refusal(inp.target)

    def save_tally(self, actor):
        if actor.status == ALIVE:
            return self.spy_saves
        return self.angel_saves if actor.team == "village" else self.demon_saves

    def check_withdraw(self, actor, inp):
        w = inp.what
        if inp.choice is not None:  # a withdrawal by choice is the Werewolf Witch's (WW-7)
            return refusal("a withdrawal names no choice here")
        if w in ("coven", "court", "veto", "protect", "save"):
            tally = {
                "coven": self.coven_votes,
                "court": self.court_votes,
                "veto": self.demons,
                "protect": self.angels,
            }.get(w) or self.save_tally(actor)
            if not self.night or actor.name not in tally.votes:
                return NO_VOTE_TO_WITHDRAW[w]
            if self.midnight and w in ("coven", "court", "veto"):
                return refusal("it was locked at midnight")
            return None
        if actor.status != ALIVE and not (w == "ability" and actor.status == LAST_ACT):
            return NOT_LIVING  # the dead use no ability
        sub = self.subs.get((actor.name, w))
        if sub is None:
            return NOTHING_TO_WITHDRAW[w]
        if self.midnight and w == "ability" and actor.character in ("summoner", "assassin"):
            return refusal("your names were locked at midnight")
        return None

    # --- performing an accepted input -------------------------------------------------------
    def perform(self, actor, inp):
        a = inp.action
        if a == "protect":
            self.angels.cast(actor.name, inp.target, self.seq)
            self.log_dead({"protect": inp.target, "by": actor.name})
        elif a == "veto":
            self.demons.cast(actor.name, inp.target, self.seq)
            self.log_dead({"veto": inp.target, "by": actor.name})
        elif a == "archangel":
            actor.cards -= 1
            self.archangel_spent = True
            self.log_dead({"archangel": actor.name})
        elif a == "archdemon":
            actor.cards -= 1
            self.archdemon_vetoes.add(inp.target)
            self.log_dead({"archdemon": actor.name, "target": inp.target})
        elif a == "give_card":
            actor.cards -= 1
            self.log_dead({"give_card": actor.name, "to": inp.target})
            self.give_card(self.by_name[inp.target], 1)
        elif a == "save":
            self.save_tally(actor).cast(actor.name, inp.target, self.seq)
            to = (
                DEAD
                if actor.status == DEAD_
                else tuple(p.name for p in self.living() if p.type == "village_spy")
            )
            self.emit("save_vote", to, {"voter": actor.name, "target": inp.target})
        elif a == "weapon":
            self.subs[(actor.name, "weapon")] = inp
            self.emit("submitted", (actor.name,), {"action": "weapon", "target": inp.target})

    def perform_meeting(self, actor, inp):
        if inp.action == "coven":
            self.coven_votes.cast(actor.name, inp.target, self.seq)
            self.emit(
                "coven_vote",
                self._coven()[1],  # the names
                {"voter": actor.name, "target": inp.target},
                meeting="coven",
            )
        else:
            self.court_votes.cast(actor.name, inp.target, self.seq)
            self.emit(
                "court_vote",
                tuple(self.court_living()),
                {"voter": actor.name, "target": inp.target},
                meeting="court",
            )

    def perform_withdraw(self, actor, inp):
        w = inp.what
        tally = {
            "coven": self.coven_votes,
            "court": self.court_votes,
            "veto": self.demons,
            "protect": self.angels,
        }.get(w)
        if w == "save":
            tally = self.save_tally(actor)
        if tally is not None:
            tally.withdraw(actor.name, self.seq)
        else:
            del self.subs[(actor.name, w)]
        self.emit("withdrawn", (actor.name,), {"what": w})

    # --- the day's end -------------------------------------------------------------------
    def lynch(self, target, cannon=None):
        """W-12: a lynch is a kill attempt; it ends the day (W-38: after the Cannon's)."""
        self.lynched_today = target
        self.emit("lynch", PUBLIC, {"target": target})
        killed = {}
        outcomes = []
        if cannon is not None:
            outcomes.append((cannon, self.attempt(cannon, "loose_cannon", killed=killed)))
        outcome = self.attempt(target, "lynch", lynch=True, killed=killed)
        outcomes.append((target, outcome))
        if outcome == SURVIVED:
            self.lynch_survivor = target
        # W-36: the Gravedigger learns of a lynch that kills, not of a Loose Cannon who named
        # himself and died to his own attempt.
        self.run_batch(outcomes, lynched=target if outcome in (DIED, FAKE) else None)
        if not self.over:
            self.end_day()

    def advance_phase(self):
        if self.night:
            self.resolve_night()
            return
        judge = self.holders.get("judge")
        pick = self.subs.get((judge.name, "ability")) if judge is not None else None
        if (
            pick is not None
            and judge.status == ALIVE
            and self.by_name[pick.targets[0]].status == ALIVE
        ):
            self.lynch(pick.targets[0])  # W-30
        else:
            self.end_day()

    def end_day(self):
        cap = self.holders.get("captain")
        if (
            cap is not None
            and self.captain_day == self.day
            and cap.status == ALIVE
            and self.lynched_today != cap.name
        ):  # W-62
            cap.lives += 2
            self.log_mod({"captain": cap.name, "lives": cap.lives})
        lookout = self.holders.get("lookout")
        if self.day == 1 and lookout is not None:
            # W-61: the choice standing at Day 1's deadline (a removed Lookout's lapsed with
            # his other submissions, W-72), else the default type.
            pick = self.subs.get((lookout.name, "ability"))
            self.lookout_choice = pick.choice if pick is not None else self.alarm_type()
        self.votes = new_tally(self.seed, self.phase)  # W-5a
        self.begin_night()

    # --- W-72 -------------------------------------------------------------------------
    def remove(self, seat, was_living):
        if seat.status == FAKE:
            self.removed_while_fake = seat.name  # W-72a: he still holds back W-26
        self.set_status(seat, REMOVED)
        seat.cards = seat.cards_due = 0
        self.last_act_until.pop(seat.name, None)
        # W-72: their own acts not yet in effect lapse (a Judge's pick, a Day 1 Lookout
        # choice, any night submission; the Summoner's and Assassin's names even once locked);
        # what a group locked (the Coven's, the Court's target, the vetoes) and spent cards stand.
        for key in [k for k in self.subs if k[0] == seat.name]:
            del self.subs[key]
        if seat.character == "summoner":
            self.summoner_names = None
        elif seat.character == "assassin":
            self.assassin_names = None
        for tally in (
            self.coven_votes,
            self.court_votes,
            self.angels,
            self.demons,
            self.spy_saves,
            self.angel_saves,
            self.demon_saves,
        ):
            # Their own votes lapse, and so do votes naming them (W-8a: a target is a
            # living player), so the plurality is counted among the living.
            tally.withdraw(seat.name, self.seq)
            tally.drop_target(seat.name, self.seq)
        self.archdemon_vetoes.discard(seat.name)
        self.announce({"event": "removed", "player": seat.name})
        if was_living:
            self.emit("death", PUBLIC, {"player": seat.name})
            self.death_cycles.add(self.day)
            self.drop_votes_of(seat.name)
            self.court_check()
        self.win_check()
        if not self.over:
            self.check_majority()

    def after_day_event(self):
        if not self.over:
            self.check_majority()  # W-4a
