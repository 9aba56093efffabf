"""Replacements and prods in words (games/services/replacements.py, prods.py): the public
thread's notices, the in-site notifications and the emails' one-line summaries. Only
public facts are named: a seat by its player's name, the game, the phase; never a card,
an alignment or a private thread."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# The public thread's notices: sentences with {placeholders}, translated when written
# (services.posts.clock_notice_create and moderator_notice_create fill them in).
WANTED = gettext_noop("A replacement is wanted for {name}.")
NO_LONGER_WANTED = gettext_noop("{name} stays: no replacement is wanted any more.")
REPLACES = gettext_noop("{new} replaces {old}.")

REASONS = {
    "asked": gettext_noop("asked to leave"),
    "moderator": gettext_noop("marked by the moderator"),
    "prods": gettext_noop("prodded twice"),
}


def sentence(key: str) -> str:
    """One of the notices above, in the active language."""
    return _(key)


def reason_label(reason: str) -> str:
    """Why a seat is marked, for the moderator's desk."""
    return _(REASONS[reason]) if reason in REASONS else reason


def offer_text(name: str, title: str, phase: str) -> str:
    """To a volunteer: a seat offered (the game and the phase, nothing of the cards)."""
    return _("{name}'s seat in {title} is offered to you ({phase}): take it or decline.").format(
        name=name, title=title, phase=phase
    )


def leave_asked_text(name: str, note: str) -> str:
    """To the moderator: a player asked to be replaced, with their reason if they gave one."""
    if note:
        return _("{name} asked to be replaced: “{note}”").format(name=name, note=note)
    return _("{name} asked to be replaced.").format(name=name)


def prod_text(number: int, phase: str, *, name: str = "", you: bool) -> str:
    """A prod (issue 16's prod rule): to the player (`you`) or to the moderator."""
    if you:
        if number == 1:
            return _("You have not posted for a while in {phase}: please post.").format(phase=phase)
        return _(
            "Second prod in {phase}: your seat is now marked for replacement. Post, or ask "
            "the moderator to keep you."
        ).format(phase=phase)
    if number == 1:
        return _("{name} was prodded ({phase}): no post for the game's prod time.").format(
            name=name, phase=phase
        )
    return _("{name} was prodded a second time ({phase}) and is marked for replacement.").format(
        name=name, phase=phase
    )
