"""Vote tallies shared by the rulesets: plurality (W-5, W-5a) and the day's majority (W-4)."""

from .order import sha_key

_new = object.__new__


def majority(living: int) -> int:
    """W-4: a true majority of the living."""
    return living // 2 + 1


class Tally:
    """Votes of a group, one per voter, with the order in which each count last changed.

    W-5: the most votes wins; a tie goes to the tied player whose count last changed
    earliest. `seq` is the input counter, so the order is the record's order.
    W-5a: counts change step by step, and within a step a moved vote leaves its old target
    (sub-step 0) before it reaches the new one (sub-step 1); withdrawals made at one step
    (a voter or a target who stops being living) are simultaneous. A tie that remains goes
    to the smallest hex SHA-256 of "<seed>:<phase>:<name>", `phase` being the one the
    votes belong to: never by name, never by the order of a dict.
    """

    __slots__ = ("votes", "counts", "changed", "seed", "phase")

    def __init__(self, seed=None, phase=None):
        self.votes = {}
        self.counts = {}
        self.changed = {}
        self.seed = seed
        self.phase = phase

    def cast(self, voter, target, seq) -> bool:
        votes = self.votes
        old = votes.get(voter)
        if old == target:
            return False  # W-5a: an identical resubmission changes nothing
        counts = self.counts
        changed = self.changed
        if old is not None:  # W-5a: the old target's count changes first (_bump, inlined)
            n = counts.get(old, 0) - 1
            if n:
                counts[old] = n
            else:
                del counts[old]
            changed[old] = (seq, 0)
        votes[voter] = target
        # _bump(target, 1, (seq, 1)), inlined: a count that rises never reaches 0
        counts[target] = counts.get(target, 0) + 1
        changed[target] = (seq, 1)
        return True

    def withdraw(self, voter, seq) -> bool:
        old = self.votes.pop(voter, None)
        if old is None:
            return False
        self._bump(old, -1, (seq, 0))
        return True

    def _bump(self, target, delta, seq):
        n = self.counts.get(target, 0) + delta
        if n:
            self.counts[target] = n
        else:
            del self.counts[target]
        self.changed[target] = seq

    def drop_target(self, target, seq):
        """Void every vote for `target` (W-4a, W-18)."""
        for voter in [v for v, t in self.votes.items() if t == target]:
            self.withdraw(voter, seq)

    def plurality(self):
        """W-5: the winner, or None with no votes; W-5a for a tie that remains."""
        # The smallest (-count, changed), found as the most votes, then the earliest change
        # among those: asked of the day's votes before every bandwagon proposal of a playout.
        counts = self.counts
        if len(counts) < 2:
            return next(iter(counts), None)
        top = max(counts.values())
        tied = [t for t, n in counts.items() if n == top]
        if len(tied) > 1:
            changed = self.changed
            first = min([changed[t] for t in tied])
            tied = [t for t in tied if changed[t] == first]
            if len(tied) > 1:  # W-5a: counts last changed at the same step
                return min(tied, key=lambda t: sha_key(self.seed, self.phase, t))
        return tied[0]

    def count(self, target) -> int:
        return self.counts.get(target, 0)

    def copy(self):
        t = Tally(self.seed, self.phase)
        t.votes = dict(self.votes)
        t.counts = dict(self.counts)
        t.changed = dict(self.changed)
        return t


def new_tally(seed, phase):
    """`Tally(seed, phase)` without the class call's frame: a night begins with seven."""
    t = _new(Tally)
    t.votes = {}
    t.counts = {}
    t.changed = {}
    t.seed = seed
    t.phase = phase
    return t
