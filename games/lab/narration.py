"""The setup lab's words: team names, a share with its interval, the chart's description,
a deal in one line."""

from collections import Counter

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.lab.simulation.setups import suggested
from games.narration.labels import WINNERS, role_label, type_label_count

# The lab names a team as a heading does ("Village", not "the Village"); a result the
# lab has no name of its own for falls back to the winner's words.
TEAMS = {
    "village": gettext_lazy("Village"),
    "witches": gettext_lazy("Witches"),
    "werewolves": gettext_lazy("Werewolves"),
    "fool": gettext_lazy("Fool"),
    "were_hamster": gettext_lazy("Were-Hamster"),
    "hamster_and_gerbil": gettext_lazy("Were-Hamster and Were-Gerbil"),
    "nobody": gettext_lazy("Nobody"),
    "unfinished": gettext_lazy("Unfinished (stopped without a result)"),
}


# A setup's ruleset as its name says it ("Werewolf 12"): the simulation's English keys,
# worded here.
RULESETS = {"witchhunt": "Witchhunt", "werewolf": pgettext_lazy("ruleset", "Werewolf")}


def setup_label(setup, *, short: bool = False) -> str:
    """A setup's name in the reader's language. A suggested setup is named by its ruleset
    and size, worded here ("Werewolf 12 (suggested)"; `short`: "Werewolf 12", where the
    list says they are suggested); the simulation keeps its English name as a key. A
    name a member gave a setup is theirs, shown as given."""
    chosen = suggested(setup.ruleset, setup.seats)
    if setup.name and not (chosen is not None and setup.name == chosen.name):
        return setup.name
    args = {"ruleset": RULESETS.get(setup.ruleset, setup.ruleset), "seats": setup.seats}
    if setup.name and not short:
        return _("%(ruleset)s %(seats)s (suggested)") % args
    return pgettext("a setup's name", "%(ruleset)s %(seats)s") % args


def team_label(key: str) -> str:
    return str(TEAMS.get(key) or WINNERS.get(key) or key.replace("_", " ").capitalize())


def percent(fraction: float) -> str:
    """A share as a whole percentage in the reader's format: "54%", German "54 %"."""
    # round() as f"{x:.0f}" rounds (half to even), so the English stays as it was.
    return _("%(percent)s%%") % {"percent": number_format(round(fraction * 100))}


def thousands(n: int) -> str:
    """A count with the reader's thousands separator: "20,000", German "20.000"."""
    return number_format(n, force_grouping=True)


def margin(low: float, high: float) -> str:
    """An interval's half-width in percentage points, rounded up to a whole one: "3"."""
    return str(max(1, round((high - low) * 50 + 0.499)))


def share_text(team: str, share: float, low: float, high: float) -> str:
    """ "Village 54% ± 3": what a suggested setup is labelled with."""
    return _("%(team)s %(share)s ± %(margin)s") % {
        "team": team_label(team),
        "share": percent(share),
        "margin": margin(low, high),
    }


def share_band_text(team: str, share: float, low: float, high: float, band) -> str:
    """ "Village 47% ± 3 (careless play 38%, sharp play 42%)": a suggested setup's label
    once its band is known (`band`: the careless and the sharp share, in that order; sharp
    play may favour either side, so they are named, not sorted)."""
    careless, sharp = band
    return _("%(share)s (careless play %(careless)s, sharp play %(sharp)s)") % {
        "share": share_text(team, share, low, high),
        "careless": percent(careless),
        "sharp": percent(sharp),
    }


def interval_text(low: float, high: float) -> str:
    return _("%(low)s to %(high)s") % {"low": percent(low), "high": percent(high)}


def chart_title(setup_label: str) -> str:
    return _("Win chances for %(setup)s") % {"setup": setup_label}


def chart_axes():
    """The chart's axes and legend words, in the active language."""
    from games.lab.simulation.chart import Axes  # matplotlib: loaded by the workers alone

    return Axes(
        # "%%": the sign is a format's, as in every msgid that holds one.
        shares=_("Share of games won (bars: 95%% interval)") % {},
        players=_("Players"),
        players_marked=_("Players (dotted: this setup)"),
        share=_("Share of games won"),
    )


def chart_desc(teams, games: int, sizes=()) -> str:
    """The chart in words: each team's share and interval, then each size's shares."""
    shares = "; ".join(
        _("%(team)s wins %(share)s (95%% interval %(interval)s)")
        % {
            "team": team_label(t.team),
            "share": percent(t.share),
            "interval": interval_text(t.low, t.high),
        }
        for t in teams
    )
    text = ngettext(
        "Over %(games)s simulated game: %(shares)s.",
        "Over %(games)s simulated games: %(shares)s.",
        games,
    ) % {"games": thousands(games), "shares": shares}
    for seats, estimate in sizes:
        by_team = ", ".join(
            _("%(team)s %(share)s") % {"team": team_label(t.team), "share": percent(t.share)}
            for t in estimate.teams
        )
        text += " " + _("At %(seats)s players: %(shares)s.") % {"seats": seats, "shares": by_team}
    return text


def deal_text(ruleset: str, deal: dict) -> str:
    """What a setup deals, in one line: "Drawn from 48 characters: 2 Elder Witches, 1 Junior
    Witch, 9 Basic Villagers." or "A list of cards: 2 × Werewolf, Seer, 5 × Villager."."""
    if deal.get("mode") == "pool" and ruleset == "witchhunt":
        types = ", ".join(
            f"{n} {type_label_count(t, n)}" for t, n in deal.get("types", {}).items() if n
        )
        return _("Drawn from %(n)s characters: %(types)s.") % {
            "n": len(deal.get("characters", [])),
            "types": types,
        }
    if deal.get("mode") == "pool":
        roles = ", ".join(role_label(r) for r in deal.get("roles", []))
        specials = deal.get("specials", len(deal.get("roles", [])))
        return _(
            "%(wolves)s Werewolves and %(specials)s of %(roles)s; Villagers in the other seats."
        ) % {
            "wolves": deal.get("werewolves", 0),
            "specials": specials,
            "roles": roles or _("no role"),
        }
    if ruleset == "witchhunt":
        counts = Counter(c.get("type") for c in deal.get("cards", []))
        parts = [f"{n} {type_label_count(t, n)}" for t, n in counts.items()]
    else:
        counts = Counter(c.get("role") for c in deal.get("cards", []))
        parts = [
            _("%(n)s × %(role)s") % {"n": n, "role": role_label(r)} if n > 1 else role_label(r)
            for r, n in counts.items()
        ]
    return _("A list of cards: %(cards)s.") % {"cards": ", ".join(parts)}


# The lab's limits (games/lab/services/limits.py), as the member reads them on the form.
def still_running(setup_label: str) -> str:
    return _(
        "Your estimate of %(setup)s is still running. The lab runs one estimate for each "
        "member at a time: start this one when it is done."
    ) % {"setup": setup_label}


def busy(waiting: int | None = None) -> str:
    if waiting is None:
        return _("The lab is busy. Try again in a few minutes.")
    return ngettext(
        "The lab is busy: %(count)s estimate is waiting. Try again in a few minutes.",
        "The lab is busy: %(count)s estimates are waiting. Try again in a few minutes.",
        waiting,
    ) % {"count": waiting}


def window_spent(
    *,
    seats: int,
    cost: int,
    used: int,
    budget: int,
    per_unit: int,
    window_minutes: int,
    minutes: int,
) -> str:
    """The sliding window's refusal: what this setup counts, what the member's estimates
    of the window count already, and when this one fits."""
    # Two whole sentences: the rule (its count is the setup's cost), then when to try again.
    rule = ngettext(
        "This %(seats)s-player setup counts %(cost)s estimate: a member's estimates in any "
        "%(window)s minutes may count %(budget)s, each one for every %(per_unit)s players or "
        "part of them, and yours count %(used)s.",
        "This %(seats)s-player setup counts %(cost)s estimates: a member's estimates in any "
        "%(window)s minutes may count %(budget)s, each one for every %(per_unit)s players or "
        "part of them, and yours count %(used)s.",
        cost,
    ) % {
        "seats": seats,
        "cost": cost,
        "window": window_minutes,
        "budget": budget,
        "per_unit": per_unit,
        "used": used,
    }
    again = ngettext(
        "Try again in %(count)s minute.", "Try again in %(count)s minutes.", minutes
    ) % {"count": minutes}
    return f"{rule} {again}"


# What an estimate means, and what the site's own games showed (issue 32).
def band_text(team: str, careless: float, sharp: float) -> str:
    """ "When both sides play carelessly the Village wins 38%; when both play sharply, 42%.":
    the band, each end named (sharp play helps the evil side's lies as much as the
    village's reading, so it is not always the higher)."""
    return _(
        "When both sides play carelessly the %(team)s wins %(careless)s; when both play "
        "sharply, %(sharp)s."
    ) % {"team": team_label(team), "careless": percent(careless), "sharp": percent(sharp)}


def estimate_meaning(team: str, share: float, low: float, high: float) -> str:
    """The estimate in a sentence a host reads before choosing a setup."""
    return _(
        "The lab’s estimate: in games played by bots that claim, share results and lie as "
        "typical forum players do, the %(team)s won %(share)s (%(low)s to %(high)s)."
    ) % {
        "team": team_label(team),
        "share": percent(share),
        "low": percent(low),
        "high": percent(high),
    }


def not_a_promise() -> str:
    return _("It is a guide to balance, not a promise: real players differ.")


def _observed(games, wins, low, high, team) -> dict:
    return {
        "count": thousands(games),
        "team": team_label(team),
        "wins": thousands(wins),
        "share": percent(wins / games),
        "interval": interval_text(low, high),
    }


def observed_text(games: int, wins: int, low: float, high: float, team: str = "village") -> str:
    """ "12 finished games on this site: the Village won 5 (42%, 95% interval 19% to 68%)."."""
    return ngettext(
        "%(count)s finished game on this site: the %(team)s won %(wins)s (%(share)s, 95%% "
        "interval %(interval)s).",
        "%(count)s finished games on this site: the %(team)s won %(wins)s (%(share)s, 95%% "
        "interval %(interval)s).",
        games,
    ) % _observed(games, wins, low, high, team)


def observed_hosted(games: int, wins: int, low: float, high: float, team: str = "village") -> str:
    """The same of the games a member hosted with their own setup."""
    return ngettext(
        "%(count)s finished game you hosted with this setup: the %(team)s won %(wins)s "
        "(%(share)s, 95%% interval %(interval)s).",
        "%(count)s finished games you hosted with this setup: the %(team)s won %(wins)s "
        "(%(share)s, 95%% interval %(interval)s).",
        games,
    ) % _observed(games, wins, low, high, team)


def observed_none_hosted() -> str:
    return _("No game you hosted with this setup has finished yet.")


def observed_none() -> str:
    return _("No game of this setup has finished on this site yet.")
