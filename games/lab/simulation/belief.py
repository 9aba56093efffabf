"""What the village believes: a chance per player of being evil, from everything public
plus what the believer's own seat knows.

Kept cheap on purpose (a bot game should cost at most 3x the engine's random playout of
the same setup): no sampling of deals. The public evidence is summed once per game into a
score per player, in log-odds units, recomputed only when something public changed (a
finished day's votes, a death, a card shown, a claim); each villager then adds its own
knowledge (its checks, its group) and turns the scores of the players it cannot place
into chances that add up to the evil players left (the setup's count is public):
chance(p) = left x e^score(p) / the sum of e^score over those players.

The public evidence (skills.py says who uses how much of it):
- votes: a finished day's vote on a player later seen to be on the Village's side (a
  card shown, or killed at night: the killers spare their own) counts +1 (town.py);
- claimed results: "X is evil" counts +RESULT for X, "not evil" -RESULT, times the
  claimant's credibility: 1 uncontested or seen Village (killed at night), 1/2 when
  another claims the same card (one of them lies), -1 when seen evil (its word reversed)
  or caught lying: a player it named evil was killed at night (the killers spare their
  own), which also counts 2 x RESULT against it;
- a claimant whose rival for the card was seen Village (killed at night) lied: credit
  -1 and 2 x RESULT against it; and what a claimant says of its rival counts for nothing;
- a claim of a card the setup cannot deal (its deck is public) is a lie: credit -1 and
  2 x RESULT against the claimant;
- a living claimant, for each night survived since it spoke, keeps SPARED of its credit
  and gains SURVIVED: the killers go for a real checker first (bots.py), so one they
  spare night after night is likely one of them;
- a claimed card: an uncontested claimant counts CLAIMED (most claims are true, and a
  lie is found out by a counter-claim); when contested, each claimant gains the skill's
  `contest` instead (one of them is evil);
- sharp: voting beside a player believed evil (shown, or named evil by a credible
  result) counts +PAIR for each such vote; an estimate posted by a player seen Village
  counts +1 for its suspect.
"""

import math

RESULT = 3.0  # one claimed result: a strong word, but a word
PAIR = 0.5  # a vote cast beside a player believed evil
CLAIMED = -2.0  # an uncontested claimant: a liar would be found out soon
SPARED = 0.7  # a claimant's credit kept for each night the killers let it live
SURVIVED = 0.75  # and the suspicion it gains
CLEARED = -4.0  # a player the believer's own check found not to be a killer
LOWERED = math.exp(CLEARED)
BELIEVED = RESULT * 0.9  # a score from which a sharp villager counts the player evil


class Public:
    """The public evidence of one game, read by every villager (and by the killers, who
    choose to survive it). `evil` is the setup's number of killers (public: the deck is
    known), `seats` its size."""

    __slots__ = (
        "town",
        "forum",
        "skill",
        "evil",
        "seats",
        "rolls",
        "_key",
        "_scores",
        "_weights",
        "_ranked",
        "deck",
        "_left",
    )

    def __init__(self, town, forum, skill, evil, seats):
        self.town = town
        self.forum = forum
        self.skill = skill
        self.evil = evil
        self.seats = seats
        self.rolls = {}  # a team's decision drawn once for all its members (the fake)
        self.deck = None  # the cards the setup may deal (public), None: any
        self._left = (None, 0.0)
        self._key = None
        self._scores = {}
        self._weights = {}  # id of a scores dict -> (that dict, e^score per player)
        self._ranked = {}  # id of a scores dict -> (it, the living, ranked()'s answer)

    def scores(self):
        town = self.town
        votes = town.suspicion()  # reads the record
        key = (town.today, len(town.night_dead), len(town.shown), self.forum.version)
        if key != self._key:
            self._key = key
            self._scores = self._compute(votes) if self.forum.version else votes
        return self._scores

    def _compute(self, votes):
        town, forum, skill = self.town, self.forum, self.skill
        shown, night_dead = town.shown, town.night_dead
        scores = dict(votes)
        get = scores.get

        def seen(name):
            return shown.get(name) or ("village" if name in night_dead else None)

        credit = {}
        lynched = {n for _day, n in town.lynched}
        today = town.today
        deck = self.deck
        contested_cards = any(len(names) > 1 for names in forum.claimants.values())
        for card, names in forum.claimants.items():
            contested = len(names) > 1
            proven = contested and any(seen(n) == "village" for n in names)
            for name in names:
                side = seen(name)
                if proven and side is None:
                    credit[name] = -1.0  # its rival was seen Village: this one lied
                    scores[name] = get(name, 0) + 2 * RESULT
                    continue
                if deck is not None and card not in deck and side is None:
                    credit[name] = -1.0  # a card the setup cannot deal: a lie
                    scores[name] = get(name, 0) + 2 * RESULT
                    continue
                if side == "evil":
                    credit[name] = -1.0
                    continue
                if side == "village":
                    credit[name] = 1.0
                    continue
                credit[name] = 0.5 if contested else 1.0
                score = skill.contest if contested else CLAIMED
                if name not in lynched:  # nights survived since it spoke: the killers
                    nights = max(today - forum.claimed_on[name], 0)  # hunt real checkers
                    credit[name] *= SPARED**nights
                    score += SURVIVED * nights
                scores[name] = get(name, 0) + score
        for _day, speaker, target, evil in forum.results:
            if evil and target in night_dead and seen(speaker) is None:
                credit[speaker] = -1.0  # the killers spare their own: that "evil" was a lie
                scores[speaker] = get(speaker, 0) + 2 * RESULT
        rivals = forum.rivals
        for _day, speaker, target, evil in forum.results:
            if contested_cards and target in rivals(speaker):
                continue  # a claimant naming its rival says nothing: it would either way
            weight = RESULT * credit.get(speaker, 0.5)
            scores[target] = get(target, 0) + (weight if evil else -weight)
        if skill.pairs:
            evil = {n for n, t in shown.items() if t == "evil"}
            evil.update(n for n, s in scores.items() if s >= BELIEVED)
            today = town.today
            for day, cast in town.votes.items():
                if day == today or not evil:
                    continue
                marked = {t for v, t in cast.items() if v in evil}
                for voter, target in cast.items():
                    if target in marked and voter not in evil:
                        scores[voter] = get(voter, 0) + PAIR
            for speaker, target in forum.estimates.items():
                if seen(speaker) == "village":
                    scores[target] = get(target, 0) + 1
        return scores

    def weights(self, scores):
        """{player: e^score} of a scores dict this object or the town made, computed once
        for every villager that reads it (a dict is replaced, never changed, when its
        evidence changes)."""
        kept = self._weights.get(id(scores))
        if kept is None or kept[0] is not scores:
            exp = math.exp
            kept = (scores, {n: exp(min(s, 30.0)) for n, s in scores.items()})
            if len(self._weights) > 4:
                self._weights.clear()
            self._weights[id(scores)] = kept
        return kept[1]

    def ranked(self, scores, living):
        """(e^score per player, the living as (e^score, name) best first, the sum of
        those, the living as a set) for the scores dict `scores`: computed once for every
        villager voting while neither the scores nor the living change (the engine makes
        a new tuple of the living at each death)."""
        kept = self._ranked.get(id(scores))
        if kept is not None and kept[0] is scores and kept[1] is living:
            return kept[2]
        weights = self.weights(scores)
        get = weights.get
        order = sorted([(get(n, 1.0), n) for n in living], reverse=True)
        answer = (weights, order, sum([w for w, _ in order]), set(living))
        if len(self._ranked) > 4:
            self._ranked.clear()
        self._ranked[id(scores)] = (scores, living, answer)
        return answer

    def left(self, living, alive):
        """The evil players among the living nobody placed, as the public record has it:
        the setup's count, less those shown evil, less a fair share (evil / seats) for
        each lynched player whose card was not shown."""
        town = self.town
        key = (len(town.lynched), len(town.shown), living)
        if self._left[0] == key:
            return self._left[1]
        shown = town.shown
        evil = self.evil - sum(1 for side in shown.values() if side == "evil")
        unknown_dead = sum(1 for _day, n in town.lynched if n not in alive and n not in shown)
        left = evil - unknown_dead * self.evil / self.seats
        self._left = (key, left)
        return left
