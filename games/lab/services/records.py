"""Where an estimate is kept, and its record in the cache (games/lab/jobs.py says its
shape): `lab_address`, a job's plan of rounds, and the record's reads and writes.

Where an estimate is kept (`lab_address`): a suggested setup's at its own key, one answer
for everyone (it is public anyway); a member's own setup at an opaque token of the member,
the setup and the seed. So a host who checks a hidden setup leaves nothing another member
can find by computing the setup's key, and another member asking for the same setup gets
a job of their own, queued and timed like any new one, rather than a shared "done" that
would say someone had asked.
"""

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import salted_hmac

from games.lab import jobs
from games.lab.simulation.estimate import Band
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import SIZES, Setup, problems

# The skill band (careless and sharp bots) plays this fraction of the first estimate's
# games at each end: a quarter gives about ±4.5 points at 2,000 first games.
BAND_SHARE = 4
# The salt of a member's estimate's address (with SECRET_KEY, salted_hmac's secret).
ADDRESS_SALT = "games.lab.address"


def plan_for(setup: Setup) -> jobs.Plan:
    """The rounds of the settings' sizes, leaving out the sizes this setup cannot be
    scaled to (an explicit list larger than the size, a deal the rules refuse)."""
    sizes = tuple(n for n in SIZES if n != setup.seats and _scales_to(setup, n))
    first = min(settings.LAB_FIRST_GAMES, settings.LAB_GAMES)
    band = first // BAND_SHARE
    return jobs.Plan(first, settings.LAB_GAMES, settings.LAB_SIZE_GAMES, sizes, band)


def _scales_to(setup: Setup, n: int) -> bool:
    try:
        return not problems(scaled(setup, n))
    except ValueError:
        return False


def seed_or_default(seed):
    return settings.LAB_SEED if seed is None else seed


def lab_address(*, setup: Setup, user=None, seed: int | None = None) -> str:
    """Where the estimate of `setup` that `user` asks for is kept and shown (32 hex
    digits). A suggested setup's own key: public anyway, one answer for everyone. A member's
    own setup: an HMAC of the member, the setup's key and the seed, so that the address
    says nothing of the setup to anyone else (SECRET_KEY is the HMAC's secret) and is the
    same each time that member asks. Without a member (the commands), the setup's key."""
    key = setup.key()
    if user is None or key in jobs.PUBLIC_KEYS:
        return key
    value = f"{user.pk}:{key}:{seed_or_default(seed)}"
    return salted_hmac(ADDRESS_SALT, value, algorithm="sha256").hexdigest()[:32]


def record(address, seed) -> jobs.Job | None:
    """The job kept at `address`, if it is one a start there may reuse: a record written
    before addresses were opaque, at a custom setup's key, is no one's and is replaced."""
    data = cache.get(jobs.record_key(address, seed))
    if data is None:
        return None
    job = jobs.Job.from_dict(data)
    if job.owner is None and not job.visible_to(address, None):
        return None
    return job


def save(address, job, done):
    """The record, its count of games done and, once there is an estimate, its summary."""
    values = {
        jobs.record_key(address, job.seed): job.as_dict(),
        jobs.progress_key(address, job.seed): done,
    }
    if job.estimate:
        values[jobs.summary_key(address, job.seed)] = summary(job)
    cache.set_many(values, settings.LAB_CACHE_SECONDS)


def summary(job) -> dict:
    """What the new-game form shows of an estimate: its first team's rate (a TeamRate's
    dict) and, once the job has it, that team's careless-to-sharp band ("band": [the
    careless share, the sharp share])."""
    first = dict(job.estimate["teams"][0])
    found = Band.from_job(job.band, first["team"])
    if found is not None:
        first["band"] = [found.careless, found.sharp]
    return first
