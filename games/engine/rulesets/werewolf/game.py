"""The Werewolf game on the shared core: the pack, the night (WW-5..WW-10) and the end
(WW-11..WW-15)."""

from ...errors import GameRuleError
from ...events import DEAD, PUBLIC
from ...order import announcement_order
from ...votes import new_tally
from ...words import refusal
from ..base import ALIVE, DEAD_, NOT_LIVING, REMOVED, Game, Seat
from .roles import EVIL, GOOD, ROLES

NIGHT_ROLES = ("seer", "warlock", "were_gerbil", "devil", "witch")
NO_ABILITY = refusal("your card has no ability to use")  # the villagers' commonest
# The Witch's potions (WW-5, WW-7), a whole sentence each for a translation.
USED_POTION = {
    "heal": refusal("you have already used your heal"),
    "poison": refusal("you have already used your poison"),
}
POTION_AFTER_MIDNIGHT = {
    "heal": refusal("you can heal only after midnight"),
    "poison": refusal("you can poison only after midnight"),
}
NO_POTION_TO_WITHDRAW = {
    "heal": refusal("you have no heal to withdraw"),
    "poison": refusal("you have no poison to withdraw"),
}


class WWSeat(Seat):
    __slots__ = ("role", "alignment", "used", "partner")

    def __init__(self, name, idx, role):
        super().__init__(name, idx)
        self.role = role
        self.alignment = ROLES[role][0]
        self.used = set()
        self.partner = None


class WerewolfGame(Game):
    RULESET = "werewolf"
    NIGHT_START = "end_day"  # the lynch is made by day (WW-1); this only begins the night
    STALEMATE_REFUSAL = refusal("Werewolf has no stalemate rule")  # WW-1

    def __init__(self, seed, options, players):
        seats = [WWSeat(p["name"], i, p["role"]) for i, p in enumerate(players)]
        super().__init__(seed, options, seats)
        self.holders = {s.role: s for s in seats if s.role not in ("villager", "werewolf")}
        self.last_hexed = None
        self.fool_lynched = False
        self.reset_night()
        self.emit("phase", PUBLIC, {"phase": self.phase})
        wolves = [s.name for s in seats if s.role == "werewolf"]
        for name in wolves:  # WW-1
            self.tell(
                name,
                "allies",
                {
                    "group": "werewolves",
                    "known": sorted(w for w in wolves if w != name),
                    "mixed": [],
                    "mixed_witches": 0,
                },
            )

    def holder(self, role):
        return self.holders.get(role)

    def sees_everything(self, seat):
        return False  # only W-17's silence of the dead is imported (WW rulings)

    def pack(self):
        return self._pack()[0]

    def _pack(self):
        # (seats, names): asked by every pack vote's check, so kept (in `_memo`, which the
        # roster drops) until the living change.
        pack = self._memo.get("pack")
        if pack is None:
            seats = tuple(s for s in self.living_seats if s.role == "werewolf")
            pack = self._memo["pack"] = (seats, tuple(s.name for s in seats))
        return pack

    def reset_night(self):
        self.pack_votes = new_tally(self.seed, self.phase)  # W-5a
        self.subs = {}
        self.victim = None
        self.hexed = None
        self.gerbil_found = False

    def meetings(self):
        """The pack's private thread, for the living Werewolves."""
        pack = [s.name for s in self.pack()]
        return {"pack": pack} if pack else {}

    def standing(self, name):
        """What seat `name` has submitted and may still change: {what: target(s)}."""
        out = {}
        tally = self.pack_votes if self.night else self.votes
        what = "pack" if self.night else "vote"
        if name in tally.votes:
            out[what] = tally.votes[name]
        for (who, what), sub in self.subs.items():
            if who == name:
                out[what] = sub.to_step()
        return out

    def ability_shape(self, seat):
        """(min targets, max targets, guesses, choices), or None for a card with no ability."""
        if seat.role == "matchmaker":
            return (2, 2, [], [])
        if seat.role == "witch":
            return (0, 1, [], ["heal", "poison"])
        if seat.role in NIGHT_ROLES:
            return (1, 1, [], [])
        return None

    # --- the boundary -------------------------------------------------------------------
    # each action's check and effect (Game.DIRECT_ACTIONS): Werewolf has no other action
    DIRECT_ACTIONS = {
        "vote": ("check_vote", "perform_vote"),
        "unvote": ("check_vote", "perform_vote"),
        "withdraw": ("check_withdraw", "perform_withdraw"),
        "pack": ("check_pack", "perform_pack"),
        "ability": ("check_ability", "perform_ability"),
    }

    def check_action(self, actor, inp):
        return refusal("there is no such action in Werewolf")  # every other is in DIRECT_ACTIONS

    def check_ability(self, actor, inp):
        if actor.status != ALIVE:  # the commonest refusal
            return NOT_LIVING
        if inp.choice is not None or inp.guess is not None:  # FORMAT, revision 3
            why = self.stray_keys_refusal(actor, inp)
            if why is not None:
                return why
        role = actor.role
        if role == "matchmaker":  # WW-9
            if self.night or self.day != 1:
                return refusal("the Matchmaker names the Lovers during Day 1")
            if "matchmaker" in actor.used:
                return refusal("the Lovers are already bound")
            return self.targets_refusal(inp.targets, 2, 2)
        if role not in NIGHT_ROLES:
            return NO_ABILITY
        if not self.night:
            return refusal("you can only use your ability at night")
        if role == "witch":
            return self._check_witch(actor, inp)
        why = self.targets_refusal(inp.targets, 1, 1)
        if why is None and role == "warlock":  # WW-6
            if self.midnight:
                return refusal("the hex was locked at midnight")
            if inp.targets[0] == actor.name:
                return refusal("you cannot hex yourself")
            if inp.targets[0] == self.last_hexed:
                return refusal("%(target)s was hexed last night", {"target": inp.targets[0]})
        return why

    def check_pack(self, actor, inp):
        if not self.night:
            return refusal("you can only do that at night")
        if actor.status != ALIVE:
            return NOT_LIVING
        if actor.role != "werewolf":
            return refusal("you are not in the pack")
        if self.midnight:
            return refusal("the pack's victim was locked at midnight")
        target = self.by_name.get(inp.target)
        if target is None or target.status != ALIVE:
            return refusal("%(target)s is not a living player", {"target": inp.target})
        if target.role == "werewolf":
            return refusal("%(target)s is a Werewolf", {"target": inp.target})  # WW-4
        return None

    def _check_witch(self, actor, inp):  # WW-5, WW-7
        if inp.choice not in ("heal", "poison"):
            return refusal("choose heal or poison")
        if inp.choice in actor.used:
            return USED_POTION[inp.choice]
        if not self.midnight:
            return POTION_AFTER_MIDNIGHT[inp.choice]
        if inp.choice == "heal":
            why = self.targets_refusal(inp.targets, 0, 0)
            if why is None and self.victim is None:
                return refusal("the pack has no victim tonight")
            return why
        return self.targets_refusal(inp.targets, 1, 1)

    def check_withdraw(self, actor, inp):
        if actor.status != ALIVE:
            return NOT_LIVING
        if inp.choice is not None and (inp.what != "ability" or actor.role != "witch"):
            # FORMAT (revision 3): only the Witch withdraws a potion by name (WW-7).
            if inp.what == "pack":
                return refusal("a pack vote is withdrawn without a choice")
            return refusal(
                "your %(what)s has no %(choice)s to withdraw",
                {"what": inp.what, "choice": inp.choice},
            )
        if inp.what == "pack":
            if not self.night or actor.name not in self.pack_votes.votes:
                return refusal("you have no pack vote to withdraw")
            if self.midnight:
                return refusal("the pack's victim was locked at midnight")
            return None
        if inp.choice is not None:  # WW-7: one potion, by name
            if inp.what != "ability" or (actor.name, inp.choice) not in self.subs:
                return NO_POTION_TO_WITHDRAW[inp.choice]
            return None
        keys = [k for k in self.subs if k[0] == actor.name]
        if inp.what != "ability" or not keys:
            return refusal("you have no %(what)s to withdraw", {"what": inp.what})
        if self.midnight and actor.role == "warlock":
            return refusal("the hex was locked at midnight")
        return None

    # --- effects --------------------------------------------------------------------------
    def perform_ability(self, actor, inp):
        if actor.role == "matchmaker":
            actor.used.add("matchmaker")
            a_, b_ = inp.targets
            self.by_name[a_].partner = b_
            self.by_name[b_].partner = a_
            self.emit("lovers_bound", (actor.name,), {"lovers": sorted(inp.targets)})
            return
        key = (actor.name, inp.choice or "ability")
        self.subs.pop(key, None)  # re-inserted: `standing` lists the latest last
        self.subs[key] = inp
        self.emit(
            "submitted",
            (actor.name,),
            {"actor": actor.name, "targets": list(inp.targets), "choice": inp.choice},
        )

    def perform_pack(self, actor, inp):
        self.pack_votes.cast(actor.name, inp.target, self.seq)
        self.emit(
            "pack_vote",
            self._pack()[1],
            {"voter": actor.name, "target": inp.target},
            meeting="pack",
        )

    def perform_withdraw(self, actor, inp):
        if inp.what == "pack":
            self.pack_votes.withdraw(actor.name, self.seq)
            self.emit("withdrawn", (actor.name,), {"what": "pack"})
        elif inp.choice is not None:  # WW-7: that potion only
            del self.subs[(actor.name, inp.choice)]
            self.emit("withdrawn", (actor.name,), {"what": "ability", "choice": inp.choice})
        else:  # WW-7: without a choice, every standing submission (both potions)
            for key in [k for k in self.subs if k[0] == actor.name]:
                del self.subs[key]
            self.emit("withdrawn", (actor.name,), {"what": "ability"})

    def sub(self, role, what="ability"):
        p = self.holders.get(role)
        if p is None:
            return None
        s = self.subs.get((p.name, what))
        if s is None or (self.hexed == p.name and role != "werewolf"):
            return None  # WW-6: a hexed player's submissions are void
        return s

    # --- midnight (WW-5) --------------------------------------------------------------------
    def pass_midnight(self):
        self.midnight = True
        victim = self.pack_votes.plurality()
        self.victim = (
            victim if victim is not None and self.by_name[victim].status == ALIVE else None
        )
        hex_sub = (
            self.subs.get((self.holder("warlock").name, "ability"))
            if self.holder("warlock")
            else None
        )
        if hex_sub is not None and self.by_name[hex_sub.targets[0]].status == ALIVE:
            self.hexed = hex_sub.targets[0]
            if self.by_name[self.hexed].role != "werewolf":
                self.tell(self.hexed, "hexed", True)
        self.last_hexed = self.hexed
        witch = self.holder("witch")
        if self.victim is not None and witch is not None and witch.status == ALIVE:
            self.tell(witch.name, "witch", True, about=self.victim)
        self.emit("midnight", DEAD, {"victim": self.victim, "hexed": self.hexed})

    # --- the night's resolution (WW-6..WW-10) -------------------------------------------------
    def advance_phase(self):
        if not self.night:
            self.end_day()
            return
        if not self.midnight:
            self.pass_midnight()
        killed = []
        # W-8a: a submission whose target is no longer living lapses and spends nothing.
        if self.victim is not None and self.by_name[self.victim].status == ALIVE:
            heal = self.sub("witch", "heal")
            if heal is not None:
                self.holder("witch").used.add("heal")
            elif self.by_name[self.victim].role != "were_hamster":  # WW-10
                killed.append(self.victim)
        poison = self.sub("witch", "poison")
        if poison is not None and self.by_name[poison.targets[0]].status == ALIVE:
            self.holder("witch").used.add("poison")
            killed.append(poison.targets[0])
        devil = self.sub("devil")
        if devil is not None:
            killed.append(devil.targets[0])
        results = []
        for role, what, test in (
            ("seer", "seer", lambda t: t.role == "werewolf"),
            ("were_gerbil", "gerbil", lambda t: t.role == "were_hamster"),
        ):
            s = self.sub(role)
            if s is not None and self.by_name[s.targets[0]].status == ALIVE:
                found = test(self.by_name[s.targets[0]])
                results.append((self.holder(role).name, what, found, s.targets[0]))
                if role == "were_gerbil" and found:
                    self.gerbil_found = True
        for to, what, result, about in results:
            self.tell(to, what, result, about=about)
        dead = [n for n in dict.fromkeys(killed) if self.by_name[n].status == ALIVE]
        night_phase = self.phase
        order = announcement_order(self.seed, night_phase, dead)  # W-13
        found = self.gerbil_found
        self.enter_phase(self.day + 1, False)
        self.midnight = False
        self.votes = new_tally(self.seed, self.phase)  # W-5a
        self.subs = {}
        self.emit("phase", PUBLIC, {"phase": self.phase})
        self.run_batch(order, phase=night_phase, morning_found=found)

    def end_day(self):
        self.enter_phase(self.day, True)
        self.midnight = False
        self.reset_night()
        self.emit("phase", PUBLIC, {"phase": self.phase})
        if self.day == 1:
            for s in self.seats:  # WW-9: each Lover learns the partner as Night 1 begins
                if s.partner and s.status == ALIVE:
                    self.tell(s.name, "lovers", s.partner)

    def lynch(self, target):
        self.emit("lynch", PUBLIC, {"target": target})
        if self.by_name[target].role == "fool":
            self.fool_lynched = True
        self.run_batch([target])
        if not self.over:
            self.end_day()

    # --- batches and the end (W-15, WW-11..WW-15) ---------------------------------------------
    def run_batch(self, names, phase=None, morning_found=False):
        phase = phase or self.phase
        pending = list(names)
        while pending:
            batch, pending = pending, []
            for name in batch:
                p = self.by_name[name]
                if p.status != ALIVE:
                    continue
                self.set_status(p, DEAD_)
                self.emit("death", PUBLIC, {"player": name}, phase)
                if self.options["reveal_on_death"]:  # WW-3
                    # Announced when the death is: a night's at the morning, so in the new
                    # day's entry with the other announcements the morning makes (FORMAT).
                    self.announce({"event": "card", "player": name, "role": p.role})
                self.drop_votes_of(name)
            for name in batch:  # WW-9: a Lover's partner dies at once
                partner = self.by_name[name].partner
                if partner and self.by_name[partner].status == ALIVE:
                    pending.append(partner)
            phase = self.phase
        self.end_check(morning_found)

    def end_check(self, morning_found=False):
        alive = self.living_seats
        hamster = self.holder("were_hamster")
        gerbil = self.holder("were_gerbil")
        hamster_alive = hamster is not None and hamster.status == ALIVE
        if morning_found and hamster_alive and gerbil.status == ALIVE:  # WW-14
            return self.end("hamster_and_gerbil", [hamster.name, gerbil.name])
        if self.fool_lynched:  # WW-11
            if hamster_alive:
                return self.end("were_hamster", [hamster.name])
            return self.end("fool", [self.holder("fool").name])
        if not alive:
            return self.end("nobody", [])
        wolves = len(self.pack())  # the living Werewolves
        if wolves == 0:
            team = "village"
        elif wolves >= len(alive) - wolves:
            team = "werewolves"
        else:
            return None
        if hamster_alive:  # WW-13
            return self.end("were_hamster", [hamster.name])
        if team == "village":  # WW-12: every good card but a dead Thief
            winners = {
                s.name
                for s in self.seats
                if s.alignment == GOOD and not (s.role == "thief" and s.status != ALIVE)
            }
        else:
            winners = {s.name for s in self.seats if s.alignment == EVIL}
        winners |= {s.name for s in alive if s.partner}  # WW-15
        return self.end(team, winners)

    def end(self, winner, winners):
        self.over = True
        self.winner = winner
        self.winners = sorted(winners)
        self.emit("game_over", PUBLIC, {"winner": winner, "winners": self.winners})

    # --- W-72 ----------------------------------------------------------------------------------
    def remove(self, seat, was_living):
        self.set_status(seat, REMOVED)
        for key in [k for k in self.subs if k[0] == seat.name]:
            del self.subs[key]  # W-72 (WW-18): their own acts not yet in effect lapse
        if seat.role == "warlock" and self.hexed is not None:
            self.hexed = self.last_hexed = None  # W-72: the hex lapses, even locked at midnight
        self.pack_votes.withdraw(seat.name, self.seq)
        self.pack_votes.drop_target(seat.name, self.seq)  # W-8a: the living are the choice
        self.announce({"event": "removed", "player": seat.name})
        if was_living:
            self.emit("death", PUBLIC, {"player": seat.name})
            self.drop_votes_of(seat.name)
        self.end_check()
        if not self.over:
            self.check_majority()

    def declare_stalemate(self):
        raise GameRuleError(self.STALEMATE_REFUSAL)
