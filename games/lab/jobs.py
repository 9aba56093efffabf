"""A lab job's record, as the worker writes it to the cache and the page reads it back.

Pure data (no Django): games/lab/services/ runs and stores the job, games/lab/selectors.py
reads it. A job is one setup at one seed, kept at an address: a suggested setup's own key (public
anyway, one answer for everyone), or for a member's own setup an opaque token of the member,
the setup and the seed (games/lab/services/records.py `lab_address`), so that the address tells
nothing of a hidden setup and each member's estimate of it is their own. Its record is found
by `record_key`, its count of games done (written every hundred games) by `progress_key`
and its first team's share by `summary_key`: small values of their own, so that progress
never rewrites the chart and the new-game form never reads one.

A job goes queued → running → refining (a first estimate is shown) → done, or → failed.
"""

import time
from dataclasses import asdict, dataclass, field, replace

from .simulation.setups import SUGGESTED, Setup

QUEUED, RUNNING, REFINING, DONE, FAILED = "queued", "running", "refining", "done", "failed"
WORKING = (QUEUED, RUNNING, REFINING)
# A job whose worker went away (a restart, a crash) may be started again once its record
# has not changed for this long: far longer than a round takes between two saves (the
# slowest, a 48-seat size, takes minutes); a queued one waits behind the jobs ahead of it.
STALE_SECONDS = {QUEUED: 3600, RUNNING: 900, REFINING: 900}


def record_key(address: str, seed: int) -> str:
    return f"lab:{address}:{seed}"


def progress_key(address: str, seed: int) -> str:
    return f"lab:{address}:{seed}:done"


def summary_key(address: str, seed: int) -> str:
    """The first team's TeamRate as a dict: all the new-game form shows, without reading
    the record and its chart."""
    return f"lab:{address}:{seed}:summary"


# The suggested setups' keys: the addresses anyone may compute, and read.
PUBLIC_KEYS = frozenset(s.key() for group in SUGGESTED.values() for s in group)


@dataclass(frozen=True)
class Plan:
    """How many games each round plays: the setup itself to `first`, then each other size
    in `sizes` for `size_games`, then the setup itself on to `games`."""

    first: int
    games: int
    size_games: int
    sizes: tuple[int, ...]

    @property
    def asked(self) -> int:
        return max(self.first, self.games) + self.size_games * len(self.sizes)


@dataclass
class Job:
    setup: dict  # Setup.as_dict()
    seed: int
    asked: int
    state: str = QUEUED
    # Estimate.as_dict() of the setup itself, and [size, Estimate.as_dict()] at other sizes.
    estimate: dict | None = None
    sizes: list = field(default_factory=list)
    # How skill moves it: {"careless": Estimate.as_dict(), "sharp": ...} of the setup
    # itself, the same games played by bots at the two ends of skill; empty until computed.
    band: dict = field(default_factory=dict)
    # The chart by language code (services/charts.py render_charts); `svg` is the one chart
    # a record written before charts had languages holds.
    svgs: dict = field(default_factory=dict)
    svg: str = ""
    error: str = ""
    updated: float = field(default_factory=time.time)
    # Whose estimate it is: a member's own setup is theirs alone (`owner`, the user's pk);
    # a suggested setup's, or one the `balance` command stored (`public`), is everyone's.
    # A record written before addresses were opaque has neither: it is no one's.
    owner: int | None = None
    public: bool = False

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Job":
        return cls(**data)

    def stale(self, now: float | None = None) -> bool:
        limit = STALE_SECONDS.get(self.state)
        return limit is not None and (now or time.time()) - self.updated > limit

    def restartable(self, now: float | None = None) -> bool:
        return self.state == FAILED or self.stale(now)

    def working(self, now: float | None = None) -> bool:
        """Queued or at work, and not abandoned: what the lab's limits count."""
        return self.state in WORKING and not self.stale(now)

    def visible_to(self, address: str, viewer_pk: int | None) -> bool:
        """Whether the page at `address` shows this record to the member `viewer_pk` (None:
        a visitor). A member's own setup is shown to that member alone; otherwise the
        address must be public (a suggested setup's) or the record stored as public. Every
        other case is the same 404 as an address never used."""
        if self.owner is not None:
            return viewer_pk is not None and viewer_pk == self.owner
        return self.public or address in PUBLIC_KEYS


def canonical(setup: Setup) -> Setup:
    """`setup` with its pool's lists in a fixed order, so that a pool picked in any order
    (a form posts checkboxes in page order) is one estimate: a suggested setup's own when
    it is one, else sorted. A pool's order changes which game a seed deals, not the odds."""
    deal = setup.deal
    if deal.get("mode") != "pool":
        return setup
    lists = [k for k in ("characters", "roles") if isinstance(deal.get(k), list)]
    for known in SUGGESTED.get(setup.ruleset, []):
        if _unordered(known, lists) == _unordered(setup, lists):
            return known
    return replace(setup, deal={**deal, **{k: sorted(deal[k]) for k in lists}})


def _unordered(setup: Setup, lists) -> tuple:
    deal = {**setup.deal, **{k: sorted(setup.deal.get(k) or []) for k in lists}}
    return Setup(setup.ruleset, setup.seats, deal, setup.options).key()
