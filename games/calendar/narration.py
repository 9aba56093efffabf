"""The calendar feeds' words, in the language active when they are built (the member's
own for their private feed, accounts.language.in_language_of; the request's for a game's)."""

from django.utils.translation import gettext as _

from games.narration import phase_label


def summary(deadline) -> str:
    """ "Game 12 · Day 2 ends": what a calendar app shows in its grid."""
    if deadline.is_start:
        return _("%(game)s · starts") % {"game": deadline.title}
    words = {"game": deadline.title, "phase": phase_label(deadline.phase)}
    if deadline.paused:
        return _("%(game)s · %(phase)s ends (clock paused)") % words
    return _("%(game)s · %(phase)s ends") % words


def description(deadline, url: str) -> str:
    if deadline.is_start:
        said = _("The game is to start: sign-ups close.")
    elif deadline.paused:
        said = _("The clock is paused: the deadline moves when the moderator restarts it.")
    else:
        said = _("The deadline of %(phase)s.") % {"phase": phase_label(deadline.phase)}
    return f"{said}\n{url}"


def member_calendar_name() -> str:
    return _("Witchhunt: my deadlines")


def game_calendar_name(title: str) -> str:
    return _("%(game)s: deadlines") % {"game": title}
