"""A job's chart, drawn from its estimates (games/lab/simulation/chart.py draws it)."""

from games.lab import jobs
from games.lab import narration as words
from games.lab.simulation.estimate import Estimate
from games.lab.simulation.setups import Setup


def render_chart(setup: Setup, job: jobs.Job) -> str:
    """The job's chart: its own estimate, and every size's, its own size among them."""
    from games.lab.simulation.chart import chart_svg  # matplotlib: loaded by the workers alone

    own = Estimate.from_dict(job.estimate)
    others = [(n, Estimate.from_dict(e)) for n, e in job.sizes]
    by_size = sorted([*others, (setup.seats, own)] if others else [], key=lambda s: s[0])
    return chart_svg(
        title=words.chart_title(setup.label()),
        desc=words.chart_desc(own.teams, own.games, others),
        teams=_bars(own),
        sizes=[(n, _bars(e)) for n, e in by_size],
        current=setup.seats,
    )


def chart_warm():
    """Draw a chart and drop it: the first in a process imports matplotlib and loads its
    fonts (over a second), which the lab's worker does before its first job."""
    from games.lab.simulation.chart import Bar, chart_svg

    chart_svg(title="", desc="", teams=[Bar("", 0.5, 0.4, 0.6)])


def _bars(estimate: Estimate) -> list:
    from games.lab.simulation.chart import Bar

    return [Bar(words.team_label(t.team), t.share, t.low, t.high) for t in estimate.teams]
