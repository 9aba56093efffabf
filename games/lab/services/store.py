"""Keep an estimate made elsewhere (the `balance` command) as the lab's answer."""

from django.conf import settings

from games.lab import jobs
from games.lab.simulation.estimate import Estimate
from games.lab.simulation.setups import Setup

from .charts import render_charts
from .records import record, save


def lab_store(*, setup: Setup, estimate: Estimate, sizes=(), band=None) -> bool:
    """Keep an estimate made elsewhere (the `balance` command) as the lab's answer for
    `setup`, with its chart, so the lab and the new-game form show it without a job. A job
    at work is left alone, and so is a stored answer of as many games or more. `sizes` is
    [(seats, Estimate)] at other sizes; `band` the (careless, sharp) Estimates of the setup,
    if made. True when stored."""
    seed = settings.LAB_SEED
    job = record(setup.key(), seed)
    if job is not None:
        busy = job.working()
        kept = (job.estimate or {}).get("games", 0)
        if busy or (job.state == jobs.DONE and kept >= estimate.games):
            return False
    others = [[n, e.as_dict()] for n, e in sizes if n != setup.seats]
    asked = estimate.games + sum(e["games"] for _, e in others)
    job = jobs.Job(
        setup=setup.as_dict(),
        seed=seed,
        asked=asked,
        state=jobs.DONE,
        estimate=estimate.as_dict(),
        sizes=others,
        public=True,  # at the setup's own key: the operator's to publish
    )
    if band is not None:
        careless, sharp = band
        job.band = {"careless": careless.as_dict(), "sharp": sharp.as_dict()}
    job.svgs = render_charts(setup, job)
    save(setup.key(), job, asked)
    return True
