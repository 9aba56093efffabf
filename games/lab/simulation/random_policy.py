"""The `random` skill: the random-lynch baseline (Braverman, Etesami and Mossel's model).

By day the first voter names a uniformly random other living player and every other seat
joins that one wagon, so each day lynches a uniformly random living player (the first
voter is itself uniform, the order being random). By night the killers' first voter names
a uniformly random player outside its team and the rest join. Nobody uses a power or
talks. For plain Villagers against Werewolves the Village's chance is then known exactly
(tests/lab/test_random_lynch.py checks the lab's games against it).
"""

from games.engine import Input

from .bots import Bot
from .town import count_votes


class RandomBot(Bot):
    """A seat of the random-lynch model: its `SeatView` only, like every bot."""

    def __init__(self, view, rng, town):
        super().__init__(view, rng, town)
        self.talker = False
        self.idle_at_night = not self.killer

    def day(self):
        view = self.view
        if view.status != "alive":
            return []
        votes = view.votes()
        me = self.me
        if votes:
            target = count_votes(votes)[1]
            if target == me or votes.get(me) == target:
                return []  # the wagon's target: it does not vote (nor against itself)
        else:
            others = [n for n in view.living if n != me]
            if not others:
                return []
            target = self.rng.choice(others)
        return [Input("action", me, "vote", target)]

    def night(self, after_midnight):
        if after_midnight or self.view.status != "alive" or not self.killer:
            return []
        self.learn()
        return self.meetings()

    def kill_target(self, living):
        allies, me = self.allies(), self.me
        others = [n for n in living if n not in allies and n != me]
        return self.rng.choice(others) if others else None
