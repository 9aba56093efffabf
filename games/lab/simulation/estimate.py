"""Each team's win chance for a setup, estimated by playing it through the real engine.

Game i of an estimate is dealt and played from its own seed, derived from (seed, i) alone,
so an estimate is the same whether its games run in one process or in chunks on several
(`workers`), and the same seed always gives the same estimate.
"""

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from .play import UNFINISHED, play_one
from .scaling import scaled
from .setups import Setup, problems
from .skills import ALL, DEFAULT

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
# The teams always shown, in this order, even with no win (Werewolf's other results, and
# "unfinished", are shown when they happen).
TEAMS = {"witchhunt": ("village", "witches"), "werewolf": ("village", "werewolves")}


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound at 0 and n wins, unlike p ± z·se."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class TeamRate:
    team: str
    wins: int
    share: float
    low: float
    high: float


@dataclass
class Estimate:
    setup_key: str
    games: int
    teams: list[TeamRate]
    median_days: float
    # A histogram of game lengths: days[d] games ended on day d (days[0] is always 0).
    days: list[int] = field(default_factory=list)
    seed: int = 0

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Estimate":
        return cls(**{**data, "teams": [TeamRate(**t) for t in data["teams"]]})


@dataclass
class Tally:
    """What the games of an estimate (or a chunk of them) add up to; chunks merge."""

    wins: Counter = field(default_factory=Counter)
    days: Counter = field(default_factory=Counter)

    def add(self, winner: str, day: int):
        self.wins[winner] += 1
        self.days[day] += 1

    def merge(self, other: "Tally"):
        self.wins.update(other.wins)
        self.days.update(other.days)

    @property
    def games(self) -> int:
        return sum(self.wins.values())


def play_range(
    setup: Setup, seed: int, start: int, stop: int, progress=None, every=100, skill=DEFAULT
):
    """Games start..stop-1 of an estimate, played by bots of `skill`, tallied."""
    tally = Tally()
    for i in range(start, stop):
        winner, day = play_one(setup, seed, i, skill=skill)
        tally.add(winner, day)
        if progress is not None and (i + 1 - start) % every == 0:
            progress(i + 1 - start)
    return tally


def median(histogram: Counter) -> float:
    n = sum(histogram.values())
    if not n:
        return 0.0
    ordered = sorted(histogram.items())

    def nth(k):  # the k-th smallest length, 0-based
        for value, count in ordered:
            if k < count:
                return value
            k -= count
        raise IndexError(k)

    return (nth((n - 1) // 2) + nth(n // 2)) / 2


def estimate_of(setup: Setup, tally: Tally, seed: int) -> Estimate:
    n = tally.games
    names = list(TEAMS.get(setup.ruleset, ()))
    names += sorted(t for t in tally.wins if t not in names and t != UNFINISHED)
    if tally.wins[UNFINISHED]:
        names.append(UNFINISHED)
    teams = []
    for team in names:
        wins = tally.wins[team]
        low, high = wilson(wins, n)
        teams.append(TeamRate(team, wins, wins / n if n else 0.0, low, high))
    longest = max(tally.days, default=0)
    return Estimate(
        setup_key=setup.key(),
        games=n,
        teams=teams,
        median_days=median(tally.days),
        days=[tally.days[d] for d in range(longest + 1)],
        seed=seed,
    )


def simulate(
    setup: Setup,
    *,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    every: int = 100,
    workers: int = 1,
    skill: str = DEFAULT,
) -> Estimate:
    """Play `games` games of `setup` with the lab's bots of `skill` (skills.py: game i is
    dealt the same whatever the skill); `progress(done)` every `every` games. `workers` > 1
    splits the games over processes (the same estimate either way; billiard's, so a Celery
    prefork worker's daemonic child may do it too: parallel.py).
    Raises ValueError for a setup the rules refuse (`setups.problems`)."""
    if skill not in ALL:
        raise ValueError(f"no skill {skill!r} (the skills: {', '.join(ALL)})")
    wrong = problems(setup)
    if wrong:
        raise ValueError(f"{setup.label()} cannot be played: {' '.join(wrong)}")
    if workers > 1 and games >= 2 * every:
        from .parallel import play_parallel

        tally = play_parallel(setup, seed, games, workers, progress, every, skill)
    else:
        tally = play_range(setup, seed, 0, games, progress, every, skill)
    return estimate_of(setup, tally, seed)


def by_size(
    setup: Setup,
    sizes: list[int],
    *,
    games: int,
    seed: int,
    workers: int = 1,
    skill: str = DEFAULT,
) -> list[tuple[int, Estimate]]:
    """The same setup scaled to other sizes (scaling.py says how), each estimated."""
    return [
        (n, simulate(scaled(setup, n), games=games, seed=seed, workers=workers, skill=skill))
        for n in sizes
    ]


@dataclass(frozen=True)
class Band:
    """How far the skill of play moves one team's share: its share with careless bots and
    with sharp ones (either may be the higher), beside its share with typical bots."""

    team: str
    typical: float | None
    careless: float
    sharp: float

    @property
    def low(self) -> float:
        return min(self.careless, self.sharp)

    @property
    def high(self) -> float:
        return max(self.careless, self.sharp)

    @classmethod
    def of(
        cls, typical: Estimate | None, careless: Estimate, sharp: Estimate, team: str = "village"
    ) -> "Band":
        """The band of `team` (the Village unless asked) from the three estimates."""
        return cls(
            team,
            None if typical is None else share_of(typical, team),
            share_of(careless, team),
            share_of(sharp, team),
        )

    @classmethod
    def from_job(cls, band: dict, team: str = "village") -> "Band | None":
        """The band a lab job keeps ({"careless": Estimate.as_dict(), "sharp": ...}), or
        None while it is not computed."""
        if not band or "careless" not in band or "sharp" not in band:
            return None
        return cls.of(
            None, Estimate.from_dict(band["careless"]), Estimate.from_dict(band["sharp"]), team
        )


def share_of(estimate: Estimate, team: str) -> float:
    """`team`'s share of the estimate's games (0 for a team that never won)."""
    return next((t.share for t in estimate.teams if t.team == team), 0.0)
