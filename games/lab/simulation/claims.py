"""The simulated day's public talk: claims every bot of a game reads, as on a forum.

A small protocol after the AIWolf contest's: a bot may COME OUT with a card (its own, or
a fake), report what a check power DIVINED ("X is evil" / "X is not evil"), and post an
ESTIMATE (whom it suspects). Everything here is public, like the town's record: what a
bot concludes from it, any seat could. Nothing checks a claim: evil bots lie.

Only check powers are claimed (what a player would hard-claim to be believed): the
Seer (Werewolf); the Priest (W-28: is the target in the Coven), the Inquisitor (W-33: a
Holy Villager) and the Investigator (W-42: a Village Spy) in Witchhunt. Each card is
dealt at most once (W-22's deck; the Werewolf setup check), so two claimants of one card
means at least one of them lies.
"""

COMINGOUT, DIVINED, ESTIMATE = "comingout", "divined", "estimate"
# The check powers a bot may claim, per ruleset; a fake claims the first its setup may deal.
CHECKERS = {"werewolf": ("seer",), "witchhunt": ("priest", "inquisitor", "investigator")}
# A check whose yes proves the target evil (else it proves the target on the Village's side).
YES_IS_EVIL = frozenset({"seer", "priest"})


class Forum:
    """One game's claims, in the order they were posted. `version` counts the claims and
    results, so a reader's conclusions are recomputed only when something new was said."""

    __slots__ = ("claims", "card_of", "claimants", "claimed_on", "results", "estimates", "version")

    def __init__(self):
        self.claims = []  # (day, speaker, kind, target, value)
        self.card_of = {}  # speaker -> the card it came out as
        self.claimants = {}  # card -> [speakers], in the order they came out
        self.claimed_on = {}  # speaker -> the day it came out
        self.results = []  # (day, speaker, target, evil)
        self.estimates = {}  # speaker -> its latest suspect
        self.version = 0

    def come_out(self, day, speaker, card):
        if speaker in self.card_of:
            return  # one card a player: a second claim would out it as a liar
        self.card_of[speaker] = card
        self.claimed_on[speaker] = day
        self.claimants.setdefault(card, []).append(speaker)
        self._post(day, speaker, COMINGOUT, None, card)

    def divined(self, day, speaker, target, evil):
        self.results.append((day, speaker, target, evil))
        self._post(day, speaker, DIVINED, target, evil)

    def estimate(self, day, speaker, target):
        """Kept apart from `version`: a living speaker's estimate moves nobody's belief
        (belief.py hears those of the dead), so posting it recomputes nothing."""
        if self.estimates.get(speaker) != target:
            self.estimates[speaker] = target
            self.claims.append((day, speaker, ESTIMATE, target, None))

    def _post(self, day, speaker, kind, target, value):
        self.claims.append((day, speaker, kind, target, value))
        self.version += 1

    def rivals(self, speaker):
        """The others who claimed `speaker`'s card: at least one of them, or it, lies."""
        card = self.card_of.get(speaker)
        if card is None:
            return []
        return [n for n in self.claimants[card] if n != speaker]
