"""The lab's bots: one per seat, each reading only its `SeatView` (view.py) and the town's
public record (town.py), answering with inputs that the driver (play.py) applies.

The policies (docs/lab.md says the same in words):
- Knowledge. A bot knows a player's team for sure only from what its seat was told (its
  group at Day 1, its checks' results, the Coven list, cards shown to it) or made public
  (a card shown on death, a Holy character revealed). The Witchhunt dead see everything
  (W-17); Angels and Demons read of it what their night's choices need.
- The talk (claims.py, skills.py). Before each day's votes the checkers (Seer; Priest,
  Inquisitor, Investigator) may come out and post their results, truthfully; one member
  of the killers may fake a check and post invented results (framing villagers, clearing
  partners). A villager weighs it all in its belief (belief.py); one who knows better
  (the real holder of the claimed card, a framed villager) knows the claimant lies.
- The day vote. A villager votes a living player it knows is evil. Else, careless, it
  joins the leading wagon unless it trusts that player (three times in four), else
  votes its most suspected; typical or sharp, it votes the player worth most between its
  belief's chance of being evil and how near that player's wagon is to a majority (no
  majority lynches nobody). Ties at random. A Witch or Werewolf joins a wagon on a
  non-member, else starts one among non-members: at random, or (sharp, once someone
  has talked) on the one the talk makes most suspect. A loyal evil card that
  knows no ally (Warlock, Crone) joins wagons; a Werewolf wildcard (Fool, Were-Hamster,
  Were-Gerbil, Devil) votes as a villager.
- The night kill. The Coven and the pack kill among non-members (avoiding the Witches'
  mixed list of Juniors and Spies while others remain), each member joining the first
  vote cast: careless at random; typical and sharp a claimed checker first, else the
  player whose death marks the fewest of the team in the vote record (one the village
  voted for and the team did not), sharp weighing too how much the town trusts it. The
  King's Court votes as by day.
- The dead (Witchhunt). Angels protect the Coven's target (they see its votes), and after
  midnight spend an Archangel card if it was vetoed; Demons veto it, and veto the
  Angels' choice with an Archdemon card. Save votes keep one's own side alive.
- Each power as a careful player would; see `POWERS` below, one line a card. A power that
  risks its user on a guess (Loose Cannon, Wizard, Twilight Pagan, Templar) is not used.
"""

from games.engine import EVIL, ROLES, TYPES, Input
from games.engine.rulesets.witchhunt.abilities import DAY_SHAPES, ONCE

from .belief import LOWERED, Public
from .claims import CHECKERS, YES_IS_EVIL, Forum
from .skills import DEFAULT, profile
from .town import count_votes

WITCH_TYPES = ("elder_witch", "junior_witch")


class Bot:
    """What one seat knows and how it acts: `day()` and `night(after_midnight)` return
    the inputs it makes now."""

    def __init__(self, view, rng, town, public=None):
        self.view = view
        self.rng = rng
        self.town = town
        if public is None:  # alone (a policy's test): a game of its own talk, typical play
            public = Public(town, Forum(), profile(DEFAULT), None, len(view.living))
        self.public = public
        self.skill = public.skill
        self.forum = public.forum
        self.me = view.name
        self.ruleset = view.ruleset
        card = view.cards.get("character") or view.cards["role"]
        self.card = card
        if self.ruleset == "werewolf":
            self.evil = ROLES[card][0] == EVIL
            self.killer = card == "werewolf"
        else:
            self.evil = view.team == "witches"
            self.killer = self.evil
        # An Elder meets the Coven from the first night; a Junior once told it has joined.
        self.in_coven = view.cards.get("type") == "elder_witch"
        # Teams known for sure ("village" / "evil"), and players only cleared of being in
        # the killing group (a Priest's no, a Seer's no).
        self.known = {self.me: "evil" if self.evil else "village"}
        self.cleared = set()
        self.friends = set()  # a Lover's partner: never voted
        self.mixed = set()  # the Witches' mixed list (Juniors and Spies)
        self.checked = set()
        self.used = set()
        self.musketeers = set()  # the other Musketeers, met at Day 1 (W-64)
        self.court = False  # told it sits in the King's Court (W-49)
        self.armed = False  # told the Blacksmith armed it (W-63)
        self.told = set()  # what its seat was told that opens a power (the Vigilante's night)
        self._deaths_probed = 0
        self.healable = None  # the Werewolf Witch's victim tonight
        self.group = {}  # meeting -> {voter: target} tonight (Coven, Court, pack)
        self.afterlife_votes = {}  # "protect" / "veto" -> {voter: target} tonight
        self.locked = {}  # what midnight locked: the Coven's target, the vetoes
        self.names = {}  # summoner / assassin: the names a save vote may name
        self.protecting = None  # (phase, target) of its standing protect vote, as an Angel
        self._read = 0
        self._events = None
        self._phase = None
        self._phase_read = None
        # A living seat with nothing to do at night: no night power, no meeting it may
        # join (a Junior joins the Coven, the Court forms on Night 1), no weapon or save
        # vote to come (a Spy's save at Halftime). It skips its night turns.
        self.idle_at_night = not (
            self.killer
            or (self.card in POWERS and self.card not in DAY_POWERS)
            or view.cards.get("type") == "village_spy"
        )
        self._allies = (None, set())
        self._enemies = (None, set())
        # The talk (claims.py): a checker's own results, as (target, evil), and how many
        # of them it has posted; the card it came out as (its own, or a fake's).
        self.checker = not self.evil and card in CHECKERS[self.ruleset]
        self.results = []
        self.posted = 0
        self.claimed = None
        self.heard = 0  # the forum's posts it has weighed against what it knows (hear)
        self._results_heard = 0
        self._left = (None, 0.0)  # _evil_left's answer and what it depends on
        self.talker = self.checker or (self.killer and self.skill.fake > 0)

    # --- reading ----------------------------------------------------------------------
    def learn(self):
        view = self.view
        phase = view.phase
        if self._phase != phase:
            self._phase = phase
            # New dicts, not cleared ones (`locked` is an event's data); most are empty.
            if self.group:
                self.group = {}
            if self.afterlife_votes:
                self.afterlife_votes = {}
            if self.locked:
                self.locked = {}
            if self.names:
                self.names = {}
            self.healable = None
            if self.told:
                self.told.discard("vigilante")
        events = private = view.private
        everything = view.everything
        if everything is not None:  # in the afterlife: it reads the present phase only
            events = everything
            if self._events is not events or self._phase_read != phase:
                self._read = max(self._read if self._events is events else 0, _phase_start(events))
                self._phase_read = phase
        if len(events) > self._read:
            read = READ if events is private else self._read_dead()
            me = self.me
            for event in events[self._read :]:
                kind = event.kind
                if kind in read and (kind != "info" or me in event.to):
                    self._event(event)
            self._read = len(events)
        self._events = events

    def _read_dead(self):
        return READ_DEMON if self.evil else READ_ANGEL

    def _event(self, event):
        kind, data = event.kind, event.data
        if kind == "info":
            tonight = event.phase == self._phase
            self._info(event.to[0], data["what"], data["result"], data.get("about"), tonight)
        elif kind in MEETING_OF:
            meeting = MEETING_OF[kind]
            if event.phase == self._phase:
                self.group.setdefault(meeting, {})[data["voter"]] = data["target"]
            if meeting in ("coven", "pack"):
                self.known[data["voter"]] = "evil"
        elif kind == "afterlife":
            for what in ("protect", "veto"):
                if what in data and event.phase == self._phase:
                    self.afterlife_votes.setdefault(what, {})[data["by"]] = data[what]
        elif kind == "midnight" and event.phase == self._phase:
            self.locked = data

    def _info(self, who, what, result, about, tonight):
        know = self.known
        if what == "allies":
            group = result["group"]
            if group in WITCH_TYPES or group == "werewolves":
                know[who] = "evil"
                for n in result["known"]:
                    know[n] = "evil"
                mixed = result["mixed"]
                if result["mixed_witches"] == len(mixed):
                    know.update(dict.fromkeys(mixed, "evil"))
                elif result["mixed_witches"] == 0:
                    know.update(dict.fromkeys(mixed, "village"))
                elif who == self.me:
                    self.mixed.update(mixed)
            elif group == "musketeers" and who == self.me:
                self.musketeers.update(result["known"])
            elif group in ("village_spy", "village_lover"):
                know[who] = "village"
                know.update(dict.fromkeys(result["known"], "village"))
                if group == "village_lover" and who == self.me:
                    self.friends.update(result["known"])
        elif what == "coven" or what == "bishop":
            know.update(dict.fromkeys(result, "evil"))
            if what == "coven" and who == self.me:
                self.in_coven = self.me in result
        elif what in ("zealot", "cupid"):
            know.update(dict.fromkeys(result, "village"))
        elif what in ("acolyte", "nun") and result:
            know[result] = "village"  # the Priest, the Bishop: Holy cards
        elif what in ("priest", "seer"):
            if result:
                know[about] = "evil"
            else:
                self.cleared.add(about)
            if who == self.me and what == self.card and result in (True, False):
                self.results.append((about, bool(result)))
        elif what in ("inquisitor", "investigator") and result:
            know[about] = "village"
            if who == self.me and what == self.card:
                self.results.append((about, False))
        elif what in ("gravedigger", "templar"):
            know[about] = _team(result)
        elif what in ("sunlight", "undertaker"):
            for name, cards in result.items():
                know[name] = _team(cards)
        elif what == "lovers" and who == self.me:
            self.friends.add(result)
        elif what == "witch" and who == self.me and tonight:
            self.healable = about
        elif what == "vigilante" and who == self.me and tonight:
            self.told.add("vigilante")
        elif what == "court_disbanded" and who == self.me:
            self.told.add("court_disbanded")
            self.court = False
        elif what == "court" and who == self.me:
            self.court = self.me in result
            self.idle_at_night = self.idle_at_night and not self.court
        elif what == "armed" and who == self.me:
            self.armed = bool(result)
            self.idle_at_night = self.idle_at_night and not self.armed
        elif what in ("summoner", "assassin") and tonight:
            self.names[what] = list(result)

    # --- choosing ---------------------------------------------------------------------
    def allies(self):
        # Asked for every choice; known only grows (a team once known stays), so the set is
        # kept until it does.
        key = (len(self.known), len(self.friends))
        if self._allies[0] != key:
            side = "evil" if self.evil else "village"
            allies = {n for n, t in self.known.items() if t == side} | self.friends
            self._allies = (key, allies)
        return self._allies[1]

    def enemies(self, pool):
        enemies = self._enemy_set()
        return [n for n in pool if n in enemies] if enemies else []

    def _enemy_set(self):
        key = len(self.known)  # kept as allies() is
        if self._enemies[0] != key:
            side = "village" if self.evil else "evil"
            self._enemies = (key, {n for n, t in self.known.items() if t == side})
        return self._enemies[1]

    def suspect(self, pool):
        """Whom to harm among `pool`: a known enemy, else (Village) the most suspected by
        the public record, (evil) anyone not an ally, avoiding the mixed list."""
        me = self.me
        enemies = self._enemy_set()
        if enemies:
            enemies = [n for n in pool if n in enemies and n != me]
            if enemies:
                return self.rng.choice(enemies)
        allies = self.allies()
        others = [n for n in pool if n not in allies and n != me]
        if not others:
            return None
        if self.evil:
            if self.mixed:
                plain = [n for n in others if n not in self.mixed]
                return self.rng.choice(plain or others)
            return self.rng.choice(others)
        town = self.town
        scores = self.scores()
        for n, seen in town.shown.items():  # a card shown as Village's is no suspect
            if seen == "village" and n in others and len(others) > 1:
                others.remove(n)
        cleared = self.cleared
        uncleared = ([n for n in others if n not in cleared] or others) if cleared else others
        if not scores:  # every score 0: all are tied
            return self.rng.choice(uncleared)
        get = scores.get
        top = max([get(n, 0) for n in uncleared])
        return self.rng.choice([n for n in uncleared if get(n, 0) == top])

    def friend(self, pool, *, self_ok=True):
        """Whom to help among `pool`: a known ally, else (Village) the least suspected."""
        allies = self.allies()
        mine = [n for n in pool if n in allies and n != self.me]
        if mine:
            return self.rng.choice(mine)
        if self_ok and self.me in pool:
            return self.me
        if self.evil:
            return None
        scores = self.scores()
        others = [n for n in pool if n != self.me and self.known.get(n) != "evil"]
        if not others:
            return None
        low = min(scores.get(n, 0) for n in others)
        return self.rng.choice([n for n in others if scores.get(n, 0) == low])

    def unknown(self, pool):
        """Whom to check: a player neither known nor checked yet."""
        pool = [n for n in pool if n != self.me and n not in self.known and n not in self.checked]
        if not pool:
            return None
        if self.skill.believe >= 0.5:  # the most suspected of them: a result that counts
            get = self.scores().get
            top = max([get(n, 0) for n in pool])
            pool = [n for n in pool if get(n, 0) == top]
        pick = self.rng.choice(pool)
        self.checked.add(pick)
        return pick

    def vote_target(self, votes, living, tally=None):
        """The day vote (and the Court's): see the module's docstring. `tally`: the public
        count's (counts, leader), shared by the bots (Town.tally)."""
        me = self.me
        enemies = self._enemy_set()
        counts, lead = tally or count_votes(votes)
        if enemies:
            enemies = [n for n in living if n in enemies and n != me]
            if enemies:  # the one of them closest to a lynch (the first in seat order)
                get = counts.get
                return max(enemies, key=lambda n: get(n, 0))
        if self.evil and not self.killer and self.ruleset == "werewolf":
            allies = (me,)  # the Warlock and the Crone know no Werewolf: any wagon
        else:
            allies = self.allies()
        if self.evil:
            if lead is not None and lead != me and lead in living and lead not in allies:
                return lead
            if self.skill.sly and self.public.forum.version:
                return self._frame(living, allies)
            return self.suspect(living)  # it leaves itself out
        skill = self.skill
        if not skill.herd:  # careless: the wagon three times in four, else its suspect
            if lead is not None and lead != me and lead in living and lead not in allies:
                if self.rng.random() < skill.follow:
                    return lead
            return self.suspect(living)
        return self._village_vote(living, counts, allies)

    def _village_vote(self, living, counts, allies):
        """A villager's vote (typical, sharp): the player worth most between how likely
        it is evil (its belief) and how near its wagon is to a lynch (the skill's `herd`:
        a day without a majority lynches nobody, WW-2 / W-4, and the killers still kill).

        Cheap by construction: the living ranked by e^score are shared by the villagers
        (belief.Public.ranked); a voter adjusts the sum for the few it can place and
        looks only at the best-ranked it cannot and at the players with votes."""
        me, rng, skill = self.me, self.rng, self.skill
        believe = rng.random() < skill.believe
        scores = self.public.scores() if believe else self.town.suspicion()
        weights, order, total, alive = self.public.ranked(scores, living)
        wget = weights.get
        known, shown, cleared = self.known, self.town.shown, self.cleared

        if len(known) == 1 and len(allies) <= 1 and not shown:  # most: itself alone
            out = {me}
        else:  # itself, allies, players whose side it knows
            out = {n for n in known if n in alive}
            out.update(n for n in allies if n in alive)
            out.update(n for n, side in shown.items() if side == "village" and n in alive)
            out.add(me)
        # In the seats' order, never a set's: a set of names iterates in an order that
        # changes with the process's hash seed, and a float sum (or a choice) with it, so
        # the same game would play differently on another worker.
        total -= sum([wget(n, 1.0) for n in living if n in out])
        skip = out
        low = ()
        if cleared:
            low = [n for n in living if n in cleared and n not in out]
            total -= sum([wget(n, 1.0) for n in low]) * (1.0 - LOWERED)
            skip = out.union(low)
        if total <= 0.0:
            return self.suspect(living)
        share = max(self._evil_left(living, alive), 0.0) / total  # chance = w x share
        weight = skill.herd / (len(living) // 2 + 1)
        # The best-ranked it cannot place (ties included), at their chance alone: a
        # player among them with votes is weighed again below, with its wagon.
        best, first = [], None
        for w, n in order:
            if n in skip:
                continue
            if first is None:
                first = w
            elif w < first:
                break
            best.append(n)
        top = -1.0
        if first is not None:
            top = first * share
            if top > 1.0:
                top = 1.0
        for n, c in counts.items():  # and the wagons
            if n in out or n not in alive:
                continue
            x = wget(n, 1.0) * share
            if n in cleared:
                x *= LOWERED
            value = (1.0 if x > 1.0 else x) + weight * c
            if value > top:
                best, top = [n], value
            elif value == top and n not in best:
                best.append(n)
        if not best:
            best = list(low)  # only players its own checks cleared are left
            if not best:
                return self.suspect(living)
        pick = best[0] if len(best) == 1 else rng.choice(best)
        if believe and wget(pick, 1.0) * share >= skill.confident:
            self.forum.estimate(self.view.day, me, pick)  # it says whom it suspects
        return pick

    def _frame(self, living, allies):
        """A wagon the village may join: the non-member the talk makes most suspect."""
        others = [n for n in living if n not in allies and n != self.me and n not in self.mixed]
        if not others:
            return self.suspect(living)
        get = self.public.scores().get
        top = max([get(n, 0) for n in others])
        return self.rng.choice([n for n in others if get(n, 0) == top])

    def _evil_left(self, living, alive):
        """How many of the evil players are among those it cannot place: the setup's
        count, less those placed, less a fair share for each dead player nobody placed
        (a lynch shows no card in most setups). `alive`: the living as a set."""
        public = self.public
        if public.evil is None:
            return 1.0
        known = self.known
        if len(known) == 1:  # it knows itself alone: what anyone concludes (Public.left)
            return public.left(living, alive)
        town = self.town
        key = (len(known), len(town.lynched), len(town.shown), len(living))
        if self._left[0] == key:
            return self._left[1]
        placed = {n for n, t in known.items() if t == "evil"}
        placed.update(n for n, t in town.shown.items() if t == "evil")
        unknown_dead = sum(
            1
            for _day, n in town.lynched
            if n not in alive and n not in placed and n not in town.shown and n not in known
        )
        left = public.evil - len(placed) - unknown_dead * public.evil / public.seats
        self._left = (key, left)
        return left

    def scores(self):
        """The suspicion it acts on: the public evidence with the claims when it heeds
        them (the skill's `believe`), else the votes alone."""
        if self.rng.random() < self.skill.believe:
            return self.public.scores()
        return self.town.suspicion()

    # --- talking (claims.py) ------------------------------------------------------------
    def talk(self):
        """Before the day's votes: a checker claims and shares its results, the evil
        team's fake claims and invents them (skills.py says when)."""
        self.learn()
        if self.view.status != "alive":
            return
        if self.checker:
            self._talk_true()
        elif self.killer:
            self._talk_fake()

    def hear(self):
        """What a villager's own knowledge makes of the new claims: another claimant of
        its own card lies (a true checker knows it is evil), and so does one who names
        evil a player it knows is on the Village's side (itself, first of all), or, in
        Werewolf, clears a Werewolf it knows (the Seer's no is exact; the Priest's is not:
        a Junior is not yet in the Coven, W-28)."""
        forum = self.forum
        if forum.version == self.heard:
            return
        self.heard = forum.version
        known, me = self.known, self.me
        if self.checker:
            for name in forum.claimants.get(self.card, ()):
                if name != me:
                    known[name] = "evil"
        results = forum.results
        if len(results) > self._results_heard:
            exact_no = self.ruleset == "werewolf"
            for _day, speaker, target, evil in results[self._results_heard :]:
                side = known.get(target)
                if speaker == me or side is None or known.get(speaker) is not None:
                    continue
                if (evil and side == "village") or (exact_no and not evil and side == "evil"):
                    known[speaker] = "evil"
            self._results_heard = len(results)

    def _talk_true(self):
        skill, forum, day = self.skill, self.forum, self.view.day
        self.hear()
        if self.claimed is None:
            found = any(evil for _, evil in self.results)
            if (
                (found and self.rng.random() < skill.claim_found)
                or (skill.claim_day and day >= skill.claim_day and self.results)
                or (skill.counter and forum.claimants.get(self.card))
            ):
                self.claimed = self.card
                forum.come_out(day, self.me, self.card)
        if self.claimed is not None:
            for target, evil in self.results[self.posted :]:
                forum.divined(day, self.me, target, evil)
            self.posted = len(self.results)

    def _talk_fake(self):
        """One member of the killers fakes a check: the first in seat order of the living
        it knows in its team, so that the team agrees without a word (its room)."""
        skill, forum, view = self.skill, self.forum, self.view
        day, living, me = view.day, view.living, self.me
        allies = self.allies()
        if self.claimed is None:
            if self.ruleset == "witchhunt" and not self.in_coven:
                return  # a Junior not yet told the Coven knows no team to agree with
            team = [n for n in living if n in allies or n == me]
            if team[0] != me:
                return
            rolls = self.public.rolls  # the team decides once, and fakes once a game
            if "fake" not in rolls:
                rolls["fake"] = self.rng.random() < skill.fake
            if not rolls["fake"] or "faked" in rolls:
                return
            real = [n for names in forum.claimants.values() for n in names if n not in allies]
            if skill.fake_counter and real:
                card = forum.card_of[real[0]]
            elif skill.fake_day and day >= skill.fake_day:
                deck = self.public.deck  # a card the setup may deal, or the lie is plain
                cards = [c for c in CHECKERS[self.ruleset] if deck is None or c in deck]
                if not cards:
                    return
                card = cards[0]
            else:
                return
            self.claimed = card
            rolls["faked"] = me
            forum.come_out(day, me, card)
        # One invented result a night passed, as the real card would have.
        frames = self.claimed in YES_IS_EVIL
        while self.posted < day - 1:
            self.posted += 1
            rivals = [n for n in forum.rivals(me) if n in living and n not in allies]
            others = [n for n in living if n not in allies and n != me]
            mates = [n for n in living if n in allies and n != me]
            if frames and rivals and self.posted == 1 + len(forum.results) % 2:
                target, evil = rivals[0], True
            elif frames and others and (not mates or self.rng.random() < 0.75):
                target, evil = self.rng.choice(others), True
            elif mates:
                target, evil = self.rng.choice(mates), False
            else:
                continue
            forum.divined(day, me, target, evil)

    def kill_target(self, living):
        """The killers' first choice of a victim (typical, sharp): a claimed checker not of
        the team (she would find them), else the player whose death marks the fewest of
        the team in the vote record (sharp: and the town trusts most)."""
        if not self.skill.hunt:
            return self.suspect(living)
        allies, me, forum, mixed = self.allies(), self.me, self.forum, self.mixed
        others = [n for n in living if n not in allies and n != me and n not in mixed]
        claimed = [n for n in others if n in forum.card_of]
        if claimed and self.skill.sly:  # not one whose rival is ours: her death proves him
            claimed = [n for n in claimed if not allies.intersection(forum.rivals(n))]
        if claimed:
            return self.rng.choice(claimed)
        if not others:
            return self.suspect(living)
        # A victim the village voted for and the team did not: a night death shows the
        # victim was no killer, and the town then suspects who voted for it (town.py).
        cover = dict.fromkeys(others, 0.0)
        for cast in self.town.votes.values():
            for voter, target in cast.items():
                if target in cover:
                    cover[target] += -2.0 if voter in allies else 1.0
        if self.skill.sly:  # and, sharp, one the town trusts: its death costs the most
            get = self.public.scores().get
            for n in others:
                cover[n] -= get(n, 0)
        top = max(cover.values())
        return self.rng.choice([n for n in others if cover[n] == top])

    # --- acting -----------------------------------------------------------------------
    def day(self):
        self.learn()
        if not self.evil and self.forum.version != self.heard:
            self.hear()
        view = self.view
        out = []
        status = view.status
        if status != "alive":
            return self.last_act() if status == "last_act" else out
        if self.card in DAY_POWERS and self._ready():
            out += POWERS[self.card](self)
        votes = view.votes()
        target = self.vote_target(votes, view.living, self.town.tally(votes))
        if target is not None and votes.get(self.me) != target:
            out.append(Input("action", self.me, "vote", target))
        return out

    def asleep(self):
        """A living seat with nothing to do tonight and no news that might change that."""
        return (
            self.idle_at_night
            and len(self.view.private) == self._read
            and self.view.status == "alive"
        )

    def night(self, after_midnight):
        view = self.view
        status = view.status
        if status == "alive" and self.idle_at_night:
            if len(view.private) == self._read:
                return []  # nothing it could do tonight, and no news that might change that
            self.learn()  # the news may make it a Court member or armed
            if self.idle_at_night:
                return []
        self.learn()
        if status != "alive":
            if status == "last_act":
                return self.last_act()
            return self.afterlife(after_midnight) if view.afterlife else []
        out = []
        if not after_midnight:
            out += self.meetings()
            weapon = view.option("weapon") if self.armed else None
            if weapon is not None:
                target = self.suspect(weapon.targets)
                if target is not None:
                    out.append(Input("action", self.me, "weapon", target))
        if self.card not in DAY_POWERS and after_midnight == (self.card == "witch"):
            if self._ready():  # the Werewolf Witch acts after midnight (WW-7), the rest before
                out += POWERS[self.card](self)
        if after_midnight and "assassin" in self.names:
            target = self.friend(self.names["assassin"])
            if target is not None:
                out.append(Input("action", self.me, "save", target))
        return out

    def _ready(self):
        """Whether the card's power may be usable now, by what the seat knows (READY); the
        engine's options then say which targets it may name."""
        if self.card not in POWERS or self.card in self.used:
            return False
        ready = READY.get(self.card)
        return ready is None or ready(self, self.view, self.town)

    def meetings(self):
        out = []
        living = self.view.living
        if self.ruleset == "werewolf":
            meetings = ("pack",) if self.killer else ()
        else:  # the engine refuses a Court vote on a night the Court does not meet
            meetings = (("coven",) if self.in_coven else ()) + (("court",) if self.court else ())
        for meeting in meetings:
            votes = self.group.get(meeting, {})
            target = self._group_target(meeting, votes, living)
            if target is not None and votes.get(self.me) != target:
                out.append(Input("action", self.me, meeting, target))
        return out

    def _group_target(self, meeting, votes, living):
        if meeting == "court":
            return self.vote_target(votes, living)
        lead = _leader(votes)  # join the first vote cast on a non-member
        if lead is not None and lead in living and lead not in self.allies():
            return lead
        return self.kill_target(living)

    def afterlife(self, after_midnight):
        """An Angel (village) or a Demon (witches) in the Witchhunt afterlife."""
        out = []
        coven = self.locked.get("coven") if after_midnight else _leader(self.group.get("coven", {}))
        if not self.evil:
            vetoes = self.locked.get("vetoes", ())
            spent = False
            if after_midnight and coven in vetoes:
                card = Input("action", self.me, "archangel")
                if self.view.allows(card):
                    out.append(card)
                    vetoes, spent = (), True  # its vote for the vetoed was void (W-18): again
            if coven is not None and coven not in vetoes:
                if spent or self.protecting != (self._phase, coven):
                    out.append(Input("action", self.me, "protect", coven))
                    self.protecting = (self._phase, coven)
        elif not after_midnight and coven is not None:
            out.append(Input("action", self.me, "veto", coven))
            angels = _leader(self.afterlife_votes.get("protect", {}))
            if angels is not None and angels != coven:
                card = Input("action", self.me, "archdemon", angels)
                if self.view.allows(card):
                    out.append(card)
        if after_midnight and "summoner" in self.names:
            target = self.friend(self.names["summoner"], self_ok=False)
            if target is not None:
                out.append(Input("action", self.me, "save", target))
        return out

    def last_act(self):
        """The Dirty Old Bastard kills a suspect; the Dame gives a life to an ally."""
        option = self.view.option("ability")
        if option is None:
            return []
        pick = self.suspect if self.card == "dirty_old_bastard" else self.friend
        target = pick(option.targets)
        return [Input("action", self.me, "ability", targets=(target,) if target else ())]

    def ability(self, targets=(), *, guess=None, choice=None, once=False):
        if once:
            self.used.add(self.card)
        return [
            Input("action", self.me, "ability", targets=tuple(targets), guess=guess, choice=choice)
        ]


# The events a bot reads; the rest (the public votes and deaths) the town reads. In the
# afterlife, where it sees every event, it reads only what its night's choices need (the
# Coven's votes, midnight, the Angels' votes for a Demon, its own results).
READ = frozenset({"info", "coven_vote", "court_vote", "pack_vote", "afterlife", "midnight"})
READ_ANGEL = frozenset({"info", "coven_vote", "midnight"})
READ_DEMON = READ_ANGEL | {"afterlife"}
MEETING_OF = {"coven_vote": "coven", "court_vote": "court", "pack_vote": "pack"}


def _phase_start(events):
    """Where the current phase's events begin: at its `phase` announcement."""
    i = len(events) - 1
    while i > 0 and events[i].kind != "phase":
        i -= 1
    return max(i, 0)


def _team(cards):
    return "evil" if TYPES[cards["type"]][0] == "witches" else "village"


def _leader(votes):
    """The target with the most votes (the earliest cast of those tied), or None."""
    return count_votes(votes)[1]


# --- the powers: one function a card, (bot) -> the inputs it makes now --------------------
def _one(pick):
    """A power aimed at one player chosen by `pick` (Bot.suspect, …): first among the living;
    if the engine refuses that, among the targets its options allow."""

    def use(bot):
        target = pick(bot, bot.view.living)
        if target is not None:
            inp = bot.ability([target])
            if bot.view.allows(inp[0]):
                return inp
        option = bot.view.option("ability")
        if option is None:
            return []
        target = pick(bot, option.targets)
        return bot.ability([target]) if target is not None else []

    return use


def _plain(bot):  # a power with no target, used when the engine first allows it
    if bot.view.option("ability") is None:
        return []
    return bot.ability(once=bot.card in ONCE)


def _several(pick, n):
    """Up to `n` different players, each chosen by `pick` among those left."""

    def use(bot):
        option = bot.view.option("ability")
        if option is None:
            return []
        pool, chosen = list(option.targets), []
        for _ in range(max(option.lo, min(n, option.hi))):
            target = pick(bot, [t for t in pool if t not in chosen])
            if target is None:
                break
            chosen.append(target)
        return bot.ability(chosen) if len(chosen) >= max(option.lo, 1) else []

    return use


def _entertainer(bot):
    """W-44 kills the one of three alone in its team: two allies and a suspect, or nothing
    (with fewer than two known allies the Entertainer would be gambling with his life)."""
    option = bot.view.option("ability")
    if option is None:
        return []
    allies = [n for n in option.targets if n in bot.allies() and n != bot.me]
    if len(allies) < 2:
        return []
    target = bot.suspect([n for n in option.targets if n not in allies])
    return bot.ability(allies[:2] + [target]) if target else []


def _musketeer(bot):
    """The last Musketeer (W-64) fires at two known enemies; a Village Reckless Musketeer,
    whose shot spares Witches, never; a Witch one at two non-members."""
    if bot.musketeers & set(bot.view.living):
        return []  # not the last one yet (the deaths are public)
    if bot.evil:
        aim = [bot.suspect(bot.view.living)]
    elif bot.card != "reckless_musketeer":
        aim = bot.enemies(bot.view.living)[:2]
    else:
        aim = []
    if not aim or aim[0] is None:
        return []  # nothing worth the shot: the engine is not asked
    option = bot.view.option("ability")
    if option is None:
        return []
    targets = [t for t in aim if t in option.targets]
    if bot.evil and targets:
        second = bot.suspect([t for t in option.targets if t not in targets])
        targets += [second] if second else []
    return bot.ability(targets, once=True) if targets else []


def _lookout(bot):
    option = bot.view.option("ability")
    if option is None or "elder_witch" not in option.choices:
        return []
    bot.used.add("lookout")
    return bot.ability(choice="elder_witch")  # the Alarm watches the Elders


def _judge(bot):
    """The lynch he would vote for, should the town fail to pick one (W-30)."""
    votes = bot.view.votes()
    target = bot.vote_target(votes, bot.view.living, bot.town.tally(votes))
    if target is None:
        return []
    pick = bot.ability([target])
    return pick if bot.view.allows(pick[0]) else []


def _ww_witch(bot):
    """Heal the pack's victim unless it is known evil; poison a known Werewolf.

    Each potion is asked of the engine's check as the input it would be, not through the
    option (which probes every seat with both potions, every night): a heal names nobody,
    so the option's targets are the living the poison may name (WW-7)."""
    view = bot.view
    out = []
    victim = bot.healable
    if victim is not None and bot.known.get(victim) != "evil":
        heal = bot.ability(choice="heal")
        if view.allows(heal[0]):
            out += heal
    me = bot.me
    enemies = [
        n
        for n in bot.enemies(view.living)
        if view.allows(Input("action", me, "ability", None, (n,), None, "poison"))
    ]
    if enemies:
        out += bot.ability([bot.rng.choice(enemies)], choice="poison")
    return out


def _matchmaker(bot):
    """Bind two other players (never oneself: a Lover dies with the partner)."""
    option = bot.view.option("ability")
    if option is None:
        return []
    pool = [n for n in option.targets if n != bot.me]
    if len(pool) < 2:
        return []
    return bot.ability(bot.rng.sample(pool, 2), once=True)


SUSPECT = _one(lambda bot, pool: bot.suspect(pool))
FRIEND = _one(lambda bot, pool: bot.friend(pool))
CHECK = _one(lambda bot, pool: bot.unknown(pool))
OTHER = _one(lambda bot, pool: bot.rng.choice([n for n in pool if n != bot.me] or [None]))

POWERS = {
    # Witchhunt, by night
    "priest": CHECK,  # check an unknown player; a yes is a Coven member to vote
    "inquisitor": CHECK,
    "investigator": CHECK,
    "king": _several(lambda bot, pool: bot.friend(pool, self_ok=False), 2),  # two trusted
    "paladin": FRIEND,  # the extra life to a trusted Court member, else himself
    "vigilante": SUSPECT,
    "anarchist": SUSPECT,
    "hunter": SUSPECT,
    "entertainer": _entertainer,
    "summoner": _several(lambda bot, pool: bot.suspect(pool), 3),
    "assassin": _several(lambda bot, pool: bot.suspect(pool), 2),
    "blacksmith": _several(lambda bot, pool: bot.friend(pool, self_ok=False), 2),
    "traveling_medic": FRIEND,
    "traveling_mercenary": SUSPECT,
    "traveling_mystic": OTHER,
    "traveling_minstrel": OTHER,  # the engine offers fellow Travelers only
    "moonlight_pagan": _plain,
    "undertaker": _plain,
    # Witchhunt, by day
    "judge": _judge,  # the lynch he would vote for, should the town fail to pick one
    "lookout": _lookout,
    "sunlight_pagan": _plain,
    "captain": _plain,
    "pious_musketeer": _musketeer,
    "sneaky_musketeer": _musketeer,
    "reckless_musketeer": _musketeer,
    # Werewolf
    "seer": CHECK,
    "were_gerbil": CHECK,
    "witch": _ww_witch,
    "matchmaker": _matchmaker,
    "warlock": OTHER,  # a hex at random (the engine refuses last night's)
    "devil": OTHER,
}
DAY_POWERS = frozenset(DAY_SHAPES) | {"matchmaker"}


def _new_deaths(bot, view, town):
    """The Sunlight Pagan looks when deaths were announced since it last looked."""
    town.read()
    fresh = town.deaths > bot._deaths_probed
    bot._deaths_probed = town.deaths
    return fresh


def _halftime(bot, view, town):
    town.read()
    return town.halftime == view.day


# When a power may be usable, from the card's rules and what the seat knows (the public
# announcements, its own results), so the engine is asked for its options only then.
READY = {
    "hunter": _halftime,  # W-27's powers: on the Halftime night
    "entertainer": _halftime,
    "summoner": _halftime,
    "assassin": _halftime,
    "king": lambda bot, view, town: view.day == 1,
    "traveling_medic": lambda bot, view, town: view.day == 3,  # the Travelers meet (W-57)
    "traveling_mercenary": lambda bot, view, town: view.day == 3,
    "traveling_mystic": lambda bot, view, town: view.day == 3,
    "traveling_minstrel": lambda bot, view, town: view.day == 3,
    "undertaker": lambda bot, view, town: view.day >= 2,
    "vigilante": lambda bot, view, town: "vigilante" in bot.told,
    "anarchist": lambda bot, view, town: "court_disbanded" in bot.told,
    "paladin": lambda bot, view, town: bot.court and view.day % 2 == 0,
    "blacksmith": lambda bot, view, town: town.read() or town.alarm,
    "captain": lambda bot, view, town: town.read() or town.alarm,
    "lookout": lambda bot, view, town: view.day == 1,
    "matchmaker": lambda bot, view, town: view.day == 1,
    "sunlight_pagan": _new_deaths,
    "witch": lambda bot, view, town: bot.healable is not None or bool(bot.enemies(view.living)),
}
