"""The setup lab's reads: a job's state and answer for its page, and the suggested setups
with whatever estimates the cache holds (never computing one: the new-game form must not
wait for a simulation). The records are written by games/lab/services/. Beside an
estimate, the site's own finished games of its setup (`lab_observed`: the core's Game
rows, one query)."""

from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from games.lab import jobs
from games.lab import narration as words
from games.lab.simulation.estimate import Band, Estimate, wilson
from games.lab.simulation.setups import SUGGESTED, Setup, find_suggested
from games.models import Game


@dataclass
class TeamRow:
    team: str
    wins: int
    share: str  # "54%"
    interval: str  # "51% to 57%"


@dataclass
class SizeRow:
    seats: int
    shares: list[str]  # in the order of LabResult.size_teams; "–" for a team without
    games: int
    current: bool


@dataclass
class LabResult:
    setup: Setup
    label: str  # the setup's name in the reader's language (narration.setup_label)
    address: str  # where it is kept and shown (services/records.py lab_address)
    state: str
    done: int
    asked: int
    deal: str = ""  # the deal in words
    error: str = ""
    games: int = 0
    teams: list[TeamRow] = field(default_factory=list)
    median_days: float | None = None
    size_teams: list[str] = field(default_factory=list)
    sizes: list[SizeRow] = field(default_factory=list)
    svg: str = ""
    band: str = ""  # "When both sides play carelessly the Village wins …", once known
    observed: str = ""  # what the site's own finished games of this setup showed

    @property
    def working(self) -> bool:
        return self.state in jobs.WORKING

    @property
    def percent(self) -> int:
        return min(100, self.done * 100 // self.asked) if self.asked else 0

    # Counts as the page writes them: "1,200 of 20,000 games".
    @property
    def done_text(self) -> str:
        return words.thousands(self.done)

    @property
    def asked_text(self) -> str:
        return words.thousands(self.asked)

    @property
    def games_text(self) -> str:
        return words.thousands(self.games)


def lab_result(
    address: str, seed: int | None = None, *, viewer=None, observed: bool = True
) -> LabResult | None:
    """The page of the estimate kept at `address` as `viewer` (a user, or None) may see it,
    with (`observed`) the site's finished games of its setup (lab_observed, one query),
    or None when the cache holds no job there (never started, or expired) or holds one that
    is not theirs to see (a member's own setup is theirs alone): the same None, so the
    page's 404 says nothing of which."""
    seed = settings.LAB_SEED if seed is None else seed
    found = cache.get_many([jobs.record_key(address, seed), jobs.progress_key(address, seed)])
    data = found.get(jobs.record_key(address, seed))
    if data is None:
        return None
    job = jobs.Job.from_dict(data)
    viewer_pk = viewer.pk if viewer is not None and viewer.is_authenticated else None
    if not job.visible_to(address, viewer_pk):
        return None
    done = found.get(jobs.progress_key(address, seed)) or 0
    setup = Setup.from_dict(job.setup)
    result = LabResult(
        setup=setup,
        label=words.setup_label(setup),
        address=address,
        state=job.state,
        done=job.asked if job.state == jobs.DONE else min(done, job.asked),
        asked=job.asked,
        deal=words.deal_text(setup.ruleset, setup.deal),
        error=job.error,
        svg=chart_of(job, get_language()),
    )
    if job.estimate:
        own = Estimate.from_dict(job.estimate)
        result.games = own.games
        result.median_days = own.median_days
        result.teams = [
            TeamRow(
                words.team_label(t.team),
                t.wins,
                words.percent(t.share),
                words.interval_text(t.low, t.high),
            )
            for t in own.teams
        ]
        _sizes(result, own, [(n, Estimate.from_dict(e)) for n, e in job.sizes])
        band = Band.from_job(job.band)
        if band is not None:
            result.band = words.band_text(band.team, band.careless, band.sharp)
    if observed:
        result.observed = observed_text(setup, host=job.owner)
    return result


def _sizes(result, own, others):
    if not others:
        return
    rows = sorted([*others, (result.setup.seats, own)], key=lambda s: s[0])
    teams = list(dict.fromkeys(t.team for _, e in rows for t in e.teams))
    result.size_teams = [words.team_label(t) for t in teams]
    for seats, estimate in rows:
        shares = {t.team: words.percent(t.share) for t in estimate.teams}
        result.sizes.append(
            SizeRow(
                seats,
                [shares.get(t, "–") for t in teams],
                estimate.games,
                seats == result.setup.seats,
            )
        )


def chart_of(job: jobs.Job, language: str | None) -> str:
    """The job's chart for a reader of `language` (services/charts.py draws one in each of
    the site's languages): theirs, else the site's default language's, else the one chart
    a record written before charts had languages holds."""
    language = language or settings.LANGUAGE_CODE
    svgs = job.svgs or {}
    return (
        svgs.get(language)
        or svgs.get(language.split("-")[0])
        or svgs.get(settings.LANGUAGE_CODE)
        or job.svg
    )


@dataclass
class Suggestion:
    slug: str
    label: str
    setup_key: str
    summary: str  # "Village 54% ± 3", or "" before the lab has a first estimate
    started: bool  # a job has been started (it may be at work, done or failed)


def lab_suggested(seed: int | None = None) -> dict[str, list[Suggestion]]:
    """Each ruleset's suggested setups with their cached estimates: one read of small
    values (jobs.summary_key), never the records and their charts."""
    seed = settings.LAB_SEED if seed is None else seed
    setups = [s for group in SUGGESTED.values() for s in group]
    keys = [(jobs.summary_key(s.key(), seed), jobs.progress_key(s.key(), seed)) for s in setups]
    found = cache.get_many([k for pair in keys for k in pair])
    out = {}
    for s, (summary_key, progress_key) in zip(setups, keys, strict=True):
        first = found.get(summary_key)
        summary = ""
        if first:
            rate = (first["team"], first["share"], first["low"], first["high"])
            band = first.get("band")
            summary = words.share_band_text(*rate, band) if band else words.share_text(*rate)
        label = words.setup_label(s, short=True)
        started = progress_key in found
        out.setdefault(s.ruleset, []).append(Suggestion(s.slug(), label, s.key(), summary, started))
    return out


# --- what the site's own games showed (issue 32) ---------------------------------------------
OBSERVED_TEAM = "village"


@dataclass(frozen=True)
class Observed:
    games: int
    wins: int  # the Village's
    low: float
    high: float


def lab_observed(setup: Setup, host: int | None = None) -> Observed:
    """The finished games on the site dealt as `setup` deals (the ruleset, the seats, the
    deal and the options: Setup.key(), a pool's lists in any order) and how many the Village
    won: one query. Only finished games, only who won (public once a game ends); a running
    game, or a cancelled one, counts for nothing. With `host` (a user's pk), only the games
    that member hosted: a pool's cards not dealt stay the host's even after the end, so a
    member's own setup is matched against their own games alone, never used to ask whether
    another host's game drew from that pool."""
    key = jobs.canonical(setup).key()
    games = Game.objects.filter(
        status=Game.Status.FINISHED, ruleset=setup.ruleset, seats_count=setup.seats
    )
    if host is not None:
        games = games.filter(host_id=host)
    rows = games.exclude(winner="").values_list("deal", "options", "winner")
    winners = [
        winner
        for deal, options, winner in rows
        if jobs.canonical(Setup.from_game_fields(setup.ruleset, setup.seats, deal, options)).key()
        == key
    ]
    wins = winners.count(OBSERVED_TEAM)
    low, high = wilson(wins, len(winners))
    return Observed(len(winners), wins, low, high)


def observed_text(setup: Setup, host: int | None = None) -> str:
    """The observed results in a sentence, or that none has finished yet: the site's games
    of a public setup, or (`host`) the games a member hosted of their own setup."""
    seen = lab_observed(setup, host)
    if host is not None:
        if not seen.games:
            return words.observed_none_hosted()
        return words.observed_hosted(seen.games, seen.wins, seen.low, seen.high, OBSERVED_TEAM)
    if not seen.games:
        return words.observed_none()
    return words.observed_text(seen.games, seen.wins, seen.low, seen.high, OBSERVED_TEAM)


@dataclass
class Chosen:
    """A suggested setup the host picked on the new-game form, and what its estimate means."""

    label: str
    meaning: str  # the estimate in words, or "" before the lab has one
    band: str
    caveat: str
    observed: str


def lab_chosen(slug: str, seed: int | None = None) -> Chosen | None:
    """What the new-game form says of the suggested setup `slug` (None for another): the
    kept estimate's first team in words, with its band, and the site's finished games of
    it. One small cached value (jobs.summary_key) and one query."""
    setup = find_suggested(slug or "")
    if setup is None:
        return None
    seed = settings.LAB_SEED if seed is None else seed
    first = cache.get(jobs.summary_key(setup.key(), seed))
    meaning = band = ""
    if first:
        meaning = words.estimate_meaning(first["team"], first["share"], first["low"], first["high"])
        if first.get("band"):
            band = words.band_text(first["team"], *first["band"])
    return Chosen(
        label=words.setup_label(setup, short=True),
        meaning=meaning,
        band=band,
        caveat=words.not_a_promise() if meaning else "",
        observed=observed_text(setup),
    )
