"""Werewolf's night read back (WW-5..WW-10): the pack's victim healed, spared (the
Were-Hamster) or killed, the poison, the Devil, and the Lovers. A mixin of
`why_night.NightReader`, which keeps the night's victim, hex and standing submissions."""

from games.engine import Phase


class WerewolfNight:
    def sub(self, role, choice=None):
        holder = next((n for n, c in self.cards.items() if c.role == role), None)
        if holder is None or holder == self.hexed:  # WW-6: a hexed player's are void
            return None
        return self.subs.get((holder, choice))

    def werewolf_morning(self, i):
        """The night resolves: who the pack, the potions and the Devil kill (WW-7, WW-8)."""
        self.killed = {}
        victim = self.victim
        if victim is not None and victim in self.dead:
            self.add(i, self.why("ww_victim_gone", player=victim))
        elif victim is not None:
            if self.sub("witch", "heal") is not None:
                self.add(i, self.why("ww_healed", player=victim))
            elif self.role_of(victim) == "were_hamster":
                self.add(i, self.why("ww_hamster", player=victim))
            else:
                self.killed[victim] = "ww_pack"
        for role, choice, reason in (("witch", "poison", "ww_poison"), ("devil", None, "ww_devil")):
            targets = self.sub(role, choice)
            if targets:
                self.killed.setdefault(targets[0], reason)

    def werewolf_death(self, name, phase):
        if self.lynch_target == name:
            self.lynch_target = None
            return self.why("ww_lynch", player=name)
        if Phase.parse(phase).is_night and name in self.killed:
            return self.why(self.killed[name], player=name)
        partner = self.card(name).partner
        if partner and partner in self.dead:
            return self.why("ww_lover", player=name)
        return None  # a removal's death: its `removed` says why
