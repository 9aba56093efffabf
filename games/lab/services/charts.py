"""A job's chart, drawn from its estimates (games/lab/simulation/chart.py draws it).

The chart's words (its title, description, axes, legend and team names) are drawn into
the SVG, so the worker draws it once in each of the site's languages (settings.LANGUAGES)
and the record keeps them by language code (jobs.Job.svgs): the page shows its reader's,
and the web process never loads matplotlib."""

from django.conf import settings
from django.utils import translation

from games.lab import jobs
from games.lab import narration as words
from games.lab.simulation.estimate import Estimate
from games.lab.simulation.setups import Setup


def chart_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def render_charts(setup: Setup, job: jobs.Job) -> dict[str, str]:
    """The job's chart in each of the site's languages, by language code."""
    return {code: render_chart(setup, job, code) for code in chart_languages()}


def render_chart(setup: Setup, job: jobs.Job, language: str | None = None) -> str:
    """The job's chart in `language` (the active one if None): its own estimate, and every
    size's, its own size among them."""
    from games.lab.simulation.chart import chart_svg  # matplotlib: loaded by the workers alone

    with translation.override(language or translation.get_language()):
        own = Estimate.from_dict(job.estimate)
        others = [(n, Estimate.from_dict(e)) for n, e in job.sizes]
        by_size = sorted([*others, (setup.seats, own)] if others else [], key=lambda s: s[0])
        return chart_svg(
            title=words.chart_title(words.setup_label(setup)),
            desc=words.chart_desc(own.teams, own.games, others),
            teams=_bars(own),
            sizes=[(n, _bars(e)) for n, e in by_size],
            current=setup.seats,
            axes=words.chart_axes(),
        )


def chart_warm():
    """Draw a chart and drop it: the first in a process imports matplotlib and loads its
    fonts (over a second), which the lab's worker does before its first job."""
    from games.lab.simulation.chart import Bar, chart_svg

    chart_svg(title="", desc="", teams=[Bar("", 0.5, 0.4, 0.6)])


def _bars(estimate: Estimate) -> list:
    from games.lab.simulation.chart import Bar

    return [Bar(words.team_label(t.team), t.share, t.low, t.high) for t in estimate.teams]
