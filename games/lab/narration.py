"""The setup lab's words: team names, a share with its interval, the chart's description,
a deal in one line."""

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

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


def team_label(key: str) -> str:
    return str(TEAMS.get(key) or WINNERS.get(key) or key.replace("_", " ").capitalize())


def percent(fraction: float) -> str:
    return f"{fraction * 100:.0f}%"


def margin(low: float, high: float) -> str:
    """An interval's half-width in percentage points, rounded up to a whole one: "3"."""
    return str(max(1, round((high - low) * 50 + 0.499)))


def share_text(team: str, share: float, low: float, high: float) -> str:
    """ "Village 54% ± 3": what a suggested setup is labelled with."""
    return _("{team} {share} ± {margin}").format(
        team=team_label(team), share=percent(share), margin=margin(low, high)
    )


def interval_text(low: float, high: float) -> str:
    return _("{low} to {high}").format(low=percent(low), high=percent(high))


def chart_title(setup_label: str) -> str:
    return _("Win chances for {setup}").format(setup=setup_label)


def chart_desc(teams, games: int, sizes=()) -> str:
    """The chart in words: each team's share and interval, then each size's shares."""
    shares = "; ".join(
        _("{team} wins {share} (95% interval {interval})").format(
            team=team_label(t.team), share=percent(t.share), interval=interval_text(t.low, t.high)
        )
        for t in teams
    )
    text = _("Over {games} simulated games: {shares}.").format(games=f"{games:,}", shares=shares)
    for seats, estimate in sizes:
        by_team = ", ".join(f"{team_label(t.team)} {percent(t.share)}" for t in estimate.teams)
        text += " " + _("At {seats} players: {shares}.").format(seats=seats, shares=by_team)
    return text


def deal_text(ruleset: str, deal: dict) -> str:
    """What a setup deals, in one line: "Drawn from 48 characters: 2 Elder Witches, 1 Junior
    Witch, 9 Basic Villagers." or "A list of cards: 2 × Werewolf, Seer, 5 × Villager."."""
    if deal.get("mode") == "pool" and ruleset == "witchhunt":
        types = ", ".join(
            f"{n} {type_label_count(t, n)}" for t, n in deal.get("types", {}).items() if n
        )
        return _("Drawn from {n} characters: {types}.").format(
            n=len(deal.get("characters", [])), types=types
        )
    if deal.get("mode") == "pool":
        roles = ", ".join(role_label(r) for r in deal.get("roles", []))
        specials = deal.get("specials", len(deal.get("roles", [])))
        return _(
            "{wolves} Werewolves and {specials} of {roles}; Villagers in the other seats."
        ).format(wolves=deal.get("werewolves", 0), specials=specials, roles=roles or _("no role"))
    if ruleset == "witchhunt":
        counts = Counter(c.get("type") for c in deal.get("cards", []))
        parts = [f"{n} {type_label_count(t, n)}" for t, n in counts.items()]
    else:
        counts = Counter(c.get("role") for c in deal.get("cards", []))
        parts = [f"{n} × {role_label(r)}" if n > 1 else role_label(r) for r, n in counts.items()]
    return _("A list of cards: {cards}.").format(cards=", ".join(parts))


# The lab's limits (games/lab/services/limits.py), as the member reads them on the form.
def still_running(setup_label: str) -> str:
    return _(
        "Your estimate of {setup} is still running. The lab runs one estimate for each "
        "member at a time: start this one when it is done."
    ).format(setup=setup_label)


def busy(waiting: int | None = None) -> str:
    if waiting is None:
        return _("The lab is busy. Try again in a few minutes.")
    return ngettext(
        "The lab is busy: {n} estimate is waiting. Try again in a few minutes.",
        "The lab is busy: {n} estimates are waiting. Try again in a few minutes.",
        waiting,
    ).format(n=waiting)


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
    counts = ngettext(
        "This {seats}-player setup counts {cost} estimate",
        "This {seats}-player setup counts {cost} estimates",
        cost,
    ).format(seats=seats, cost=cost)
    rule = _(
        "a member's estimates in any {window} minutes may count {budget}, each one for "
        "every {per_unit} players or part of them, and yours count {used}"
    ).format(window=window_minutes, budget=budget, per_unit=per_unit, used=used)
    again = ngettext("Try again in {n} minute.", "Try again in {n} minutes.", minutes).format(
        n=minutes
    )
    return f"{counts}: {rule}. {again}"
