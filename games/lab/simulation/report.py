"""Estimates as plain-text tables: the `balance` command's output and docs/lab.md's."""

from .estimate import Band, Estimate
from .setups import Setup

TEAM_LABELS = {
    "village": "Village",
    "witches": "Witches",
    "werewolves": "Werewolves",
    "fool": "Fool",
    "were_hamster": "Were-Hamster",
    "hamster_and_gerbil": "Hamster and Gerbil",
    "nobody": "Nobody",
    "unfinished": "Unfinished",
}


def team_label(team: str) -> str:
    return TEAM_LABELS.get(team, team.replace("_", " ").capitalize())


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def rate(t) -> str:
    """The share and its 95% interval, as "43.0% (40.8–45.2)"."""
    return f"{percent(t.share)} ({100 * t.low:.1f}–{100 * t.high:.1f})"


def estimate_lines(setup: Setup, est: Estimate, band: Band | None = None) -> list[str]:
    """One setup's win rates, with their 95% intervals, its median length, and (when
    given) the careless-to-sharp band of the Village's share."""
    width = max(len(team_label(t.team)) for t in est.teams)
    lines = [f"{'Result':<{width}}  {'Wins':>6}  {'Share':>6}  95% interval"]
    for t in est.teams:
        lines.append(
            f"{team_label(t.team):<{width}}  {t.wins:>6,}  {percent(t.share):>6}  "
            f"{100 * t.low:.1f}% – {100 * t.high:.1f}%"
        )
    lines.append(f"Median length: {est.median_days:g} days ({est.games:,} games, seed {est.seed})")
    if band is not None:
        lines.append(f"Careless to sharp play: {band_line(band)}")
    return lines


def band_cell(band: Band) -> str:
    """The band as a table's cell, careless then sharp: "38.0% / 55.0%" (sharp play may
    favour either side, so the ends are not sorted)."""
    return f"{100 * band.careless:.1f}% / {100 * band.sharp:.1f}%"


def band_line(band: Band) -> str:
    """ "Village 38.0% (careless) to 55.0% (sharp)"."""
    return (
        f"{team_label(band.team)} {percent(band.careless)} (careless) to "
        f"{percent(band.sharp)} (sharp)"
    )


def size_table(
    rows: list[tuple[int, Estimate]], ruleset: str, bands: list[Band] | None = None
) -> list[str]:
    """The by-size table: a row per size, a column per result (share and 95% interval),
    and with `bands` (one a row) the Village's careless-to-sharp band."""
    teams = []
    for _, est in rows:
        teams += [t.team for t in est.teams if t.team not in teams]
    head = ["Seats", *(team_label(t) for t in teams), "Median days"]
    if bands is not None:
        head.append("Village: careless / sharp")
    body = []
    for i, (n, est) in enumerate(rows):
        by_team = {t.team: t for t in est.teams}
        cells = [rate(by_team[t]) if t in by_team else "–" for t in teams]
        body.append([str(n), *cells, f"{est.median_days:g}"])
        if bands is not None:
            body[-1].append(band_cell(bands[i]))
    return markdown(head, body)


def markdown(head: list[str], body: list[list[str]]) -> list[str]:
    """A Markdown table, padded so it reads as well in a terminal."""
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]

    def row(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return [row(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(row, body)]


def calibration_table(rows) -> list[str]:
    """docs/lab.md's calibration table: a row per setup (calibration.Calibration)."""
    head = [
        "Setup",
        "Estimate (typical, 95% interval)",
        "Band (careless / sharp)",
        "Expected for the mix",
        "Observed in test games (95% interval)",
        "Agrees?",
    ]
    body = [
        [
            row.setup.slug(),
            rate(row.typical),
            band_cell(row.band),
            f"{100 * row.expected:.1f}%",
            f"{row.observed.wins:,} of {row.games:,}: {rate(row.observed)}",
            "yes" if row.inside else "no",
        ]
        for row in rows
    ]
    return markdown(head, body)
