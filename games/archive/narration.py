"""A player's record in words: the teams they played for, their win rates and how
reliably they stayed to the end (the public profile, issue 16)."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.narration.labels import WINNERS, capitalised, card_label


def team_label(key: str) -> str:
    """A team in a table of win rates: "The Village", "The Werewolves", "The Fool"."""
    if key in WINNERS:
        return capitalised(WINNERS[key])
    return _("The %(card)s") % {"card": card_label(key)}


def win_rate(won: int, played: int) -> str:
    """ "2 of 3 won (67%)"."""
    percent = round(100 * won / played) if played else 0
    return ngettext(
        "%(won)s of %(played)s won (%(percent)s%%)",
        "%(won)s of %(played)s won (%(percent)s%%)",
        played,
    ) % {
        "won": number_format(won),
        "played": number_format(played),
        "percent": number_format(percent),
    }


def reliability_line(finished: int, replaced_out: int) -> str:
    """ "Finished 7 of 8 games; replaced out of 1": the games a player's part in is over,
    played to the end or left to a replacement."""
    total = finished + replaced_out
    if not total:
        return _("No game finished yet.")
    counts = {"finished": finished, "total": total, "n": replaced_out}
    if not replaced_out:
        return (
            ngettext(
                "Finished %(finished)s of %(total)s game; never replaced out.",
                "Finished %(finished)s of %(total)s games; never replaced out.",
                total,
            )
            % counts
        )
    # One sentence with two counts: the games' count picks the form, the replacements'
    # is a number ("replaced out of 1", "replaced out of 2").
    return (
        ngettext(
            "Finished %(finished)s of %(total)s game; replaced out of %(n)s.",
            "Finished %(finished)s of %(total)s games; replaced out of %(n)s.",
            total,
        )
        % counts
    )
