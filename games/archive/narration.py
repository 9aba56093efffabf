"""A player's record in words: the teams they played for, their win rates and how
reliably they stayed to the end (the public profile, issue 16)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.narration.labels import WINNERS, capitalised, card_label


def team_label(key: str) -> str:
    """A team in a table of win rates: "The Village", "The Werewolves", "The Fool"."""
    if key in WINNERS:
        return capitalised(WINNERS[key])
    return _("The {card}").format(card=card_label(key))


def win_rate(won: int, played: int) -> str:
    """ "2 of 3 won (67%)"."""
    percent = round(100 * won / played) if played else 0
    return ngettext(
        "{won} of {played} won ({percent}%)", "{won} of {played} won ({percent}%)", played
    ).format(won=won, played=played, percent=percent)


def reliability_line(finished: int, replaced_out: int) -> str:
    """ "Finished 7 of 8 games; replaced out of 1": the games a player's part in is over,
    played to the end or left to a replacement."""
    total = finished + replaced_out
    if not total:
        return _("No game finished yet.")
    played = ngettext(
        "Finished {finished} of {total} game", "Finished {finished} of {total} games", total
    ).format(finished=finished, total=total)
    if not replaced_out:
        return _("{played}; never replaced out.").format(played=played)
    left = ngettext("replaced out of {n}", "replaced out of {n}", replaced_out).format(
        n=replaced_out
    )
    return _("{played}; {left}.").format(played=played, left=left)
