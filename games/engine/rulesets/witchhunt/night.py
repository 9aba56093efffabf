"""The night, in order: its start (W-26, W-27), midnight (W-3) and its resolution
(W-11a): vetoes, protections, extra lives, kill attempts, results; then the morning.

The whole night pipeline is this one file, in the order the rulings give it.
"""

from ...events import DEAD, PUBLIC
from ...order import announcement_order
from ..base import ALIVE, LAST_ACT
from .batch import SURVIVED

TRAVELERS = ("traveling_medic", "traveling_mercenary", "traveling_mystic", "traveling_minstrel")


class NightMixin:
    __slots__ = ()  # no state of its own: WitchhuntGame's slots hold it

    # --- the start of a night -------------------------------------------------------
    def begin_night(self):
        self.enter_phase(self.day, True)
        self.midnight = False
        self.reset_night()
        self.emit("phase", PUBLIC, {"phase": self.phase})
        spies = self.seats_of_type("village_spy")
        if not self.spies_announced and not any(
            p.status in (ALIVE, "fake") or self.still_waiting(p) for p in spies
        ):
            self.spies_announced = True  # W-26: never while a fake-dead Magician Spy waits
            self.announce({"event": "spies_dead"})
        if not self.juniors_joined:
            elders_living = any(p.status == ALIVE for p in self.seats_of_type("elder_witch"))
            spies_living = any(p.status == ALIVE for p in spies)
            if not elders_living or not spies_living:
                self.juniors_joined = True
                juniors = self.seats_of_type("junior_witch")
                if juniors:
                    coven = sorted(p.name for p in self.coven_members())
                    for p in self.seats:
                        if p.team == "witches" and p.status == ALIVE:
                            self.tell(p.name, "coven", coven)
        # W-11a: the night's results describe it as it began (the Juniors joined): the
        # Priest's Coven, the Bishop's and the Zealot's lists, a member removed since included.
        self.began_coven = frozenset(p.name for p in self.coven_members())
        self.began_holy = sorted(
            [p.name for p in self.seats_of_type("holy_villager") if p.status == ALIVE]
        )
        if not self.halftime_reached and 2 * (len(self.seats) - self.living_count()) >= len(
            self.seats
        ):
            self.halftime_reached = True  # W-27
            self.halftime_night = self.day
            self.announce({"event": "halftime"})
        vig = self.holders.get("vigilante")
        if vig is not None and vig.status == ALIVE and self.vigilante_night == self.day:
            self.tell(vig.name, "vigilante", True)  # W-52

    def still_waiting(self, p):
        """W-72a: a fake-dead Magician removed holds back "all Village Spies are dead" until
        the morning he would have returned (the one after the Halftime night, W-41), as if
        still waiting: announcing it sooner would reveal the fake death."""
        if p.name != self.removed_while_fake:
            return False
        return self.halftime_night is None or self.halftime_night >= self.day

    # --- midnight (W-3) -------------------------------------------------------------
    def pass_midnight(self):
        self.midnight = True
        self.locked_coven = self._living_or_none(self.coven_votes.plurality())
        if self.court_meets():
            need = len(self.court_living()) // 2 + 1  # W-6
            self.locked_court = next(
                (
                    t
                    for t, n in self.court_votes.counts.items()
                    if n >= need and self.by_name[t].status == ALIVE
                ),
                None,
            )
        veto = self.demons.plurality()
        if veto is not None:
            self.vetoes.add(veto)
        self.vetoes |= self.archdemon_vetoes
        for name in self.vetoes:  # W-18: votes for a vetoed player become void
            self.angels.drop_target(name, self.seq)
        self.emit(
            "midnight",
            DEAD,
            {"coven": self.locked_coven, "court": self.locked_court, "vetoes": sorted(self.vetoes)},
        )
        vetoed = sorted(self.vetoes)
        phase = self.phase  # read once for the Angels' results below
        angels = [p.name for p in self.seats_of_team("village") if p.status == "dead"]
        self.tell_each(angels, "veto", vetoed, phase)
        for key, char in (("summoner", "summoner"), ("assassin", "assassin")):
            sub = self.sub_of(char)
            if sub is not None and self.halftime_night == self.day:
                names = tuple(sub.targets)
                setattr(self, key + "_names", names)
                told = (
                    p
                    for p in self.seats
                    if (
                        p.status == "dead"
                        if key == "summoner"
                        else p.status == ALIVE and p.type == "village_spy"
                    )
                )
                for p in told:
                    self.tell(p.name, key, sorted(names))

    def _living_or_none(self, name):
        return name if name is not None and self.by_name[name].status == ALIVE else None

    # --- resolution (W-11a) ---------------------------------------------------------
    def resolve_night(self):
        if not self.midnight:
            self.pass_midnight()
        n = self.day
        if n == 1:
            self.form_court()  # W-49: as Night 1 resolves, before its kill attempts
        results = self.night_results()  # W-11a: they describe the night as it began
        protected = self.protections()
        self.extra_lives()
        killed = {}
        outcomes = {}
        for name, cause, merc in self.kill_attempts():
            outcome = self.attempt(name, cause, protected=protected, killed=killed, mercenary=merc)
            if cause == "weapon" and outcome is not None:  # W-11, W-8a: else nothing spent
                self.by_name[self.weapon_user].used.add("weapon")
            if outcome is not None and (outcome != SURVIVED or name not in outcomes):
                outcomes[name] = outcome
        court_team_deaths = {self.by_name[v].team for v, c in killed.items() if c == "court"}
        vig = self.holders.get("vigilante")
        if vig is not None and vig.team in court_team_deaths:
            self.vigilante_night = n + 1
        self.night_deaths.extend(killed)
        for to, what, result, about in results:
            self.tell(to, what, result, about=about)
        if self.last_act_until:  # else no act is lost: skip the scan of every seat
            for name in [p.name for p in self.seats if p.status == LAST_ACT]:
                if self.last_act_until.get(name, n + 1) <= n:  # W-14: the act is lost
                    self.enter_afterlife(self.by_name[name])
        self.morning(outcomes)

    def morning(self, outcomes):
        night_phase = self.phase
        order = announcement_order(self.seed, night_phase, list(outcomes))  # W-13
        self.enter_phase(self.day + 1, False)
        self.midnight = False
        self.reset_day()
        self.emit("phase", PUBLIC, {"phase": self.phase})
        for data in self.morning_public:  # Moonlight reveals, then night gifts
            self.announce(data)
        self.morning_public = []
        self.run_batch([(name, outcomes[name]) for name in order], phase=night_phase, morning=True)

    # --- protections (W-10) ---------------------------------------------------------
    def protections(self):
        n = self.day
        direct = set()
        moon = self.sub_of("moonlight_pagan")
        if moon is not None:  # W-65: the vetoed are protected, other direct sources cancelled
            pagan = self.holders.get("moonlight_pagan")
            pagan.used.add("moonlight_pagan")
            pagan.revealed = True
            self.morning_public.append(
                {"event": "reveal", "player": pagan.name, "character": "moonlight_pagan"}
            )
            direct |= {v for v in self.vetoes if self.by_name[v].status == ALIVE}
        else:
            angel = self.angels.plurality()
            if (
                angel is not None
                and self.by_name[angel].status == ALIVE
                and (angel not in self.vetoes or self.archangel_spent)
            ):
                direct.add(angel)
            for char, active in (
                ("gambler", n % 2 == 0),
                ("recluse", n % 2 == 1),
                ("hunter", self.halftime_night == n),
                ("cupid", n == 1),
            ):
                p = self.holders.get(char)
                if active and p is not None and p.status == ALIVE:
                    direct.add(p.name)
        protected = set(direct)
        for name in direct:  # the Lovers' share (W-58)
            partner = self.by_name[name].partner
            if partner:
                protected.add(partner)
        harlot = self.holders.get("harlot")
        if harlot is not None and harlot.status == ALIVE:  # W-60
            lovers = sorted(
                (p for p in self.seats_of_type("village_lover") if p.name in direct),
                key=lambda p: p.idx,
            )
            for lover in lovers:
                self.tell(harlot.name, "harlot", True, about=lover.name)
            if lovers:
                protected.add(harlot.name)
                if harlot.partner:
                    protected.add(harlot.partner)
        self.log_mod({"protected": sorted(protected)})
        return protected

    # --- extra lives gained tonight (W-11a) -----------------------------------------
    def extra_lives(self):
        priest_sub = self.sub_of("priest")
        fan = self.holders.get("fanatic")
        if (
            priest_sub
            and fan is not None
            and priest_sub.targets[0] == fan.name
            and fan.status == ALIVE
        ):
            fan.lives += 1  # W-37
            self.tell(fan.name, "fanatic", True)
        inv = self.holders.get("investigator")
        inv_sub = self.sub_of("investigator")
        if inv_sub and self.target_living(inv_sub.targets[0]):
            self.investigated.add(inv_sub.targets[0])
            spies = {p.name for p in self.seats_of_type("village_spy")}
            if spies and not self.investigator_done and spies <= self.investigated:
                self.investigator_done = True  # W-42
                inv.lives += 1
                self.tell(inv.name, "investigator_life", True)
        pal_sub = self.sub_of("paladin")
        if pal_sub and self.target_living(pal_sub.targets[0]):
            self.by_name[pal_sub.targets[0]].lives += 1  # W-51
        medic = self.holders.get("traveling_medic")
        med_sub = self.sub_of("traveling_medic")
        if med_sub:
            for t in self.traveler_targets(med_sub, "traveling_medic"):
                if self.target_living(t):
                    works = self.by_name[t].type == medic.type  # W-57
                    if works:
                        self.by_name[t].lives += 1
                    self.tell(medic.name, "traveling_medic", works, about=t)
        dame = self.holders.get("benevolent_old_dame")
        dame_sub = self.sub_of("benevolent_old_dame")
        if dame_sub and dame.status == LAST_ACT:
            if dame_sub.targets and self.target_living(dame_sub.targets[0]):
                self.by_name[dame_sub.targets[0]].lives += 1  # W-32: announced next morning
                self.morning_public.append(
                    {"event": "gift", "player": dame_sub.targets[0], "from": dame.name}
                )
            self.enter_afterlife(dame)

    def target_living(self, name):
        return self.by_name[name].status == ALIVE

    def traveler_targets(self, sub, char):
        """W-57: a second target counts only if the Minstrel chose this Traveler; of the
        counted ones, those still living (W-8a: `names_left`)."""
        minstrel = self.sub_of("traveling_minstrel")
        chosen = minstrel is not None and minstrel.targets[0] == self.holder_name(char)
        return self.names_left(sub.targets[:2] if chosen else sub.targets[:1])

    def all_living(self, counted):
        """W-8a: a submission naming several targets lapses whole when any counted one is
        no longer living: removed before the deadline (statuses do not change while a night
        resolves, so a target killed earlier in the same resolution still counts as living)."""
        return tuple(counted) if all(self.by_name[t].status == ALIVE for t in counted) else ()

    def names_left(self, counted):
        """W-8a for a submission whose names each have an effect of their own (the
        Summoner's, the Assassin's, the Blacksmith's pair, a Traveler's two with the
        Minstrel's choice, the Anarchist's two): revision 3 lets each name no longer living
        lapse alone and the others go on; revision 2b let the submission lapse whole, like
        the Entertainer's (`all_living`). The game's own revision decides (W-76)."""
        if self.revision == "2b":
            return self.all_living(counted)
        return tuple([t for t in counted if self.by_name[t].status == ALIVE])

    # --- kill attempts, in W-11's order ---------------------------------------------
    def kill_attempts(self):
        if self.locked_coven:
            yield self.locked_coven, "coven", None
        if self.locked_court:  # W-72: locked at midnight, it stands if the Court disbands since
            yield self.locked_court, "court", None
        sub = self.sub_of("hunter")
        if sub and sub.targets:
            yield sub.targets[0], "hunter", None
        sub = self.sub_of("entertainer")
        # W-44, W-8a: the Entertainer's three have one effect together: they lapse whole
        # (in every revision)
        if sub and all(self.by_name[t].status == ALIVE for t in sub.targets):
            teams = [self.by_name[t].team for t in sub.targets]  # as the night began: fixed
            alone = [
                t for t, team in zip(sub.targets, teams, strict=True) if teams.count(team) == 1
            ]
            yield (alone[0] if alone else self.holder_name("entertainer")), "entertainer", None
        if self.summoner_names:  # W-46; W-8a: a saved name faces nothing and is not counted
            # The saves are pluralities of the names left: a vote for a removed name was
            # withdrawn with it (W-5a, `remove`).
            saved = {self.angel_saves.plurality(), self.demon_saves.plurality()}
            for t in self.names_left([t for t in self.summoner_names if t not in saved]):
                yield t, "summoner", None
        if self.assassin_names:  # W-47, W-8a
            saved = self.spy_saves.plurality()
            for t in self.names_left([t for t in self.assassin_names if t != saved]):
                yield t, "assassin", None
        sub = self.sub_of("vigilante")
        if sub:
            yield sub.targets[0], "vigilante", None
        sub = self.sub_of("anarchist")
        if sub:  # W-56; W-8a: the second counts only when the first was a member (as
            # it was when the Court disbanded, whether or not the first is living now)
            member = sub.targets[0] in self.court_at_disband
            for t in self.names_left(sub.targets[:2] if member else sub.targets[:1]):
                yield t, "anarchist", None
        sub = self.sub_of("traveling_mercenary")
        if sub:
            merc_type = self.holders.get("traveling_mercenary").type
            for t in self.traveler_targets(sub, "traveling_mercenary"):
                yield t, "mercenary", merc_type
        if any(what == "weapon" for _, what in self.subs):  # else skip the scan of every seat
            for p in self.seats:  # W-63
                sub = self.subs.get((p.name, "weapon"))
                if sub is not None:
                    self.weapon_user = p.name
                    yield sub.target, "weapon", None
        dob = self.holders.get("dirty_old_bastard")
        sub = self.sub_of("dirty_old_bastard")
        if sub is not None and dob.status == LAST_ACT:  # W-14, W-31
            if sub.targets:
                yield sub.targets[0], "last_act", None
            self.enter_afterlife(dob)

    def sub_of(self, char):
        p = self.holders.get(char)  # holder_name, inlined: asked a dozen times a night
        return None if p is None else self.subs.get((p.name, "ability"))

    # --- results: the night as it began ---------------------------------------------
    def night_results(self):
        n = self.day
        out = []
        coven = self.began_coven  # W-11a
        group = self.innkeeper_group()
        for char, what, test in (
            ("priest", "priest", lambda t: t.name in coven),  # W-28
            ("inquisitor", "inquisitor", lambda t: t.type == "holy_villager"),  # W-33
            ("investigator", "investigator", lambda t: t.type == "village_spy"),
        ):  # W-42
            sub = self.sub_of(char)
            if sub is None or not self.target_living(sub.targets[0]):
                continue
            target = self.by_name[sub.targets[0]]
            result = test(target)
            checker = self.holder_name(char)
            told = [checker]
            if char != "priest" and checker in group:  # W-43
                told += [m for m in group if m != checker]
            for to in told:
                out.append((to, what, result, target.name))
        if self.halftime_night == n:
            bishop = self.holders.get("bishop")
            if bishop is not None and bishop.status == ALIVE:  # W-39
                out.append((bishop.name, "bishop", sorted(coven), None))
            zealot = self.holders.get("zealot")
            if zealot is not None and zealot.status == ALIVE:  # W-45, W-11a
                out.append((zealot.name, "zealot", list(self.began_holy), None))
        cupid = self.holders.get("cupid")
        if n == 1 and cupid is not None and cupid.status == ALIVE:  # W-59
            lovers = sorted(p.name for p in self.seats if p.type == "village_lover")
            out.append((cupid.name, "cupid", lovers, None))
        sub = self.sub_of("blacksmith")
        if sub:  # W-63: armed players are told at the morning; W-8a: each of the pair
            for t in self.names_left(sub.targets):
                p = self.by_name[t]
                holy = p.type == "holy_villager"
                if not holy:
                    p.weapon_night = n
                out.append((t, "armed", not holy, None))
        sub = self.sub_of("traveling_mystic")
        if sub:  # W-57: the mark outlives the Mystic
            for t in self.traveler_targets(sub, "traveling_mystic"):
                if self.target_living(t):
                    self.by_name[t].mystic = True
        return out

    def innkeeper_group(self):
        inn = self.holders.get("innkeeper")
        if inn is None or not inn.status == ALIVE:
            return []
        return [inn.name] + [
            p.name
            for p in (self.holders.get("inquisitor"), self.holders.get("investigator"))
            if p is not None and p.status == ALIVE
        ]

    # --- the King's Court forming (W-49, W-50) --------------------------------------
    def form_court(self):
        king = self.holders.get("king")
        if king is None or not king.status == ALIVE:
            return
        members = [king.name]
        for char in ("queen", "paladin"):
            p = self.holders.get(char)
            if p is not None and p.status == ALIVE:
                members.append(p.name)
        sub = self.sub_of("king")
        for t in sub.targets if sub else ():
            if t not in members and self.by_name[t].status == ALIVE:
                members.append(t)
        self.court = members
        self.court_active = True
        self.tell_court()
        queen = self.holders.get("queen")
        if queen is not None and queen.name in members:
            witches = sum(self.by_name[m].team == "witches" for m in members)
            self.tell(queen.name, "queen", "odd" if witches % 2 else "even")
        self.log_mod({"court": sorted(members)})
        self.court_check()

    def tell_court(self, gone=()):
        # W-73: at forming and when the Pauper joins, the living members are told, and the
        # result names them (a member killed earlier in the same resolution still lives);
        # `gone`: those who died earlier in the same day event (W-73a, batch.py).
        members = sorted(m for m in self.court if self.by_name[m].status == ALIVE and m not in gone)
        for m in members:
            self.tell(m, "court", members)
