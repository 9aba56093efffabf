"""Vote tallies shared by the rulesets: plurality (W-5) and the day's majority (W-4)."""


def majority(living: int) -> int:
    """W-4: a true majority of the living."""
    return living // 2 + 1


class Tally:
    """Votes of a group, one per voter, with the order in which each count last changed.

    W-5: the most votes wins; a tie goes to the tied player whose count last changed
    earliest. `seq` is the input counter, so the order is the record's order.
    """

    __slots__ = ("votes", "counts", "changed")

    def __init__(self):
        self.votes = {}
        self.counts = {}
        self.changed = {}

    def cast(self, voter, target, seq) -> bool:
        old = self.votes.get(voter)
        if old == target:
            return False
        if old is not None:
            self._bump(old, -1, seq)
        self.votes[voter] = target
        self._bump(target, 1, seq)
        return True

    def withdraw(self, voter, seq) -> bool:
        old = self.votes.pop(voter, None)
        if old is None:
            return False
        self._bump(old, -1, seq)
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
        """W-5: the winner, or None with no votes."""
        best = None
        best_key = None
        for target, n in self.counts.items():
            key = (-n, self.changed[target])
            if best_key is None or key < best_key:
                best, best_key = target, key
        return best

    def count(self, target) -> int:
        return self.counts.get(target, 0)

    def copy(self):
        t = Tally()
        t.votes = dict(self.votes)
        t.counts = dict(self.counts)
        t.changed = dict(self.changed)
        return t
