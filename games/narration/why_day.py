"""The day's votes and lynches, removals, announcements, results and the end, read for
their rulings: what both rulesets share (see why.py). `why_night.NightReader` adds the nights."""

from typing import NamedTuple

from games.engine import Phase

from .rulings import result_why, reveal_why, why


class Card(NamedTuple):
    character: str | None = None
    type: str | None = None
    role: str | None = None
    partner: str | None = None


class Reader:
    """The day's votes, lynches, removals, announcements and the end: what both rulesets
    share. `NightReader` adds each ruleset's night."""

    def __init__(self, events, cards, ruleset, names):
        self.events = events
        self.cards = cards
        self.ww = ruleset == "werewolf"
        self.names = names
        self.out = {}
        self.dead = set()  # not living now: dead, offstage or removed
        self.votes = {}  # the day's standing votes, voter -> target
        self.day_lynched = False
        self.phase = None
        self.i = 0  # the event being read
        self.lynched = self.lynch_target = None  # the last lynch; one whose death is to come
        self.stalemate = False

    def add(self, i, w):
        if w is not None:
            self.out.setdefault(i, []).append(w)

    def why(self, reason, **params):
        return why(reason, self.names, **params)

    def holder(self, character):
        return next((n for n, c in self.cards.items() if c.character == character), None)

    def role_of(self, name):
        card = self.cards.get(name)
        return card.role if card else None

    def read(self):
        for i, ev in enumerate(self.events):
            self.i = i
            handle = getattr(self, "on_" + ev.kind, None)
            if handle is not None:
                handle(i, ev)
        return self.out

    # --- the day's vote (W-4, W-4a) -------------------------------------------------
    def living(self):
        return len(self.cards) - len(self.dead)

    def need(self):
        return self.living() // 2 + 1

    def count(self, target):
        return sum(1 for t in self.votes.values() if t == target)

    def on_vote(self, i, ev):
        self.votes[ev.data.get("voter")] = ev.data.get("target")

    def on_unvote(self, i, ev):
        self.votes.pop(ev.data.get("voter"), None)

    def on_phase(self, i, ev):
        if Phase.parse(ev.phase).is_night and self.phase and not self.day_lynched:
            top = max((self.count(t) for t in set(self.votes.values())), default=0)
            reason = ("ww_" if self.ww else "") + ("no_lynch" if top else "no_votes")
            self.add(
                i,
                self.why(reason, day=self.phase, votes=top, living=self.living(), need=self.need()),
            )
        self.phase = ev.phase
        self.votes = {}
        self.day_lynched = False

    def on_lynch(self, i, ev):
        target = ev.data.get("target")
        self.day_lynched = True
        before = self.events[i - 1] if i else None
        if (
            before is not None
            and before.kind == "public"
            and before.data.get("event") == "reveal"
            and before.data.get("character") == "loose_cannon"
        ):
            reason = "cannon"
        elif self.count(target) >= self.need():
            reason = (
                "majority" if before is not None and before.kind == "vote" else "majority_recount"
            )
            reason = "ww_" + reason if self.ww else reason
        else:
            reason = "judge"  # W-30: the only lynch without a majority or a Cannon
        self.add(i, self.why(reason, player=target, votes=self.count(target), living=self.living()))
        self.lynched = self.lynch_target = target

    def died(self, name):
        """A death (or an offstage or removed player) by day withdraws their vote and every
        vote for them (W-4a)."""
        self.dead.add(name)
        self.votes.pop(name, None)
        self.votes = {v: t for v, t in self.votes.items() if t != name}

    # --- announcements, removals and the end ------------------------------------------
    def on_public(self, i, ev):
        d = ev.data
        event, player = d.get("event"), d.get("player")
        if event == "removed":
            self.add(
                i, self.why("removed_dead" if player in self.dead else "removed", player=player)
            )
            self.died(player)
        elif event == "returned":
            self.dead.discard(player)
            self.add(i, self.why("returned", player=player))
        elif event in ("spies_dead", "halftime", "alarm"):
            self.add(i, self.why(event))
        elif event == "reveal":
            self.add(i, reveal_why(d.get("character"), player, self.names))
        elif event == "gift":
            self.add(i, self.why("gift", player=player))
        elif event == "stalemate":
            cause = "stalemate_cycles" if d.get("cause") == "cycles" else "moderator_stalemate"
            self.add(i, self.why(cause))
            self.stalemate = True
        elif event == "card":
            self.add(i, self.why("ww_card"))

    def on_info(self, i, ev):
        self.add(
            i, result_why(ev.data.get("what"), "werewolf" if self.ww else "witchhunt", self.names)
        )

    def on_game_over(self, i, ev):
        winner = ev.data.get("winner")
        if self.ww:
            self.add(i, self.why(self.werewolf_win(winner)))
            if winner in ("village", "werewolves") and any(
                self.cards.get(n, Card()).partner for n in ev.data.get("winners", ())
            ):
                self.add(i, self.why("ww_lovers_win"))
            return
        if not self.stalemate:
            self.add(i, self.why("win_witches" if winner == "witches" else "win_village"))
        self.add(i, self.why("winners"))

    def werewolf_win(self, winner):
        if winner == "were_hamster":
            lynched = self.lynched
            return "ww_win_hamster_fool" if self.role_of(lynched) == "fool" else "ww_win_hamster"
        return {
            "village": "ww_win_village",
            "werewolves": "ww_win_werewolves",
            "fool": "ww_win_fool",
            "hamster_and_gerbil": "ww_win_gerbil",
        }.get(winner, "ww_win_nobody")
