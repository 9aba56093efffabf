"""The community in words: sign-ups and absences (services/signups.py, services/absences.py)
and replacements and prods (services/replacements.py, services/prods.py).

Sign-ups: the refusals a member reads, the host's and players' notifications, and the
notices in a game's thread. A moment in a notification is written in its reader's zone,
given as a ZoneInfo; a thread notice is stored as meaning and worded when read, in each
reader's language and zone (games/narration/said.py: its kinds are registered here).

Replacements and prods: the public thread's notices, the in-site notifications and the
emails' one-line summaries. Only public facts are named: a seat by its player's name, the
game, the phase; never a card, an alignment or a private thread."""

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.narration.said import meaning, sentence


def day_words(at, zone) -> str:
    """A day as a player list says it: "Fri 4 Dec" (the language's DAY_FORMAT)."""
    return formats.date_format(at.astimezone(zone), "DAY_FORMAT")


def moment_words(at, zone) -> str:
    """A moment in one member's words and zone: "Fri 4 Dec 2026, 18:00 (Europe/Paris)"."""
    local = at.astimezone(zone)
    return _("{day} {year}, {time} ({zone})").format(
        day=day_words(at, zone), year=local.year, time=f"{local:%H:%M}", zone=zone.key
    )


def finished_games_words(count: int) -> str:
    return ngettext("{n} finished game", "{n} finished games", count).format(n=count)


def too_few_games(needed: int, played: int) -> str:
    """Why a member may not sign up: "This game asks for 3 finished games; you have
    finished 1." """
    return _("this game asks for {needed}; you have finished {played}").format(
        needed=finished_games_words(needed), played=played
    )


def full_text() -> str:
    return _("Every seat is taken: you can deal the cards and start the game.")


def started_text() -> str:
    return _("The game has started: your cards are on your role page.")


def lapsed_text(filled: int, seats: int, at, zone) -> str:
    """The host's notice when the start date passes and the game is not full."""
    return _(
        "The start date ({moment}) has passed with {filled} of {seats} seats taken. "
        "Move the date, make the game smaller, or cancel it."
    ).format(moment=moment_words(at, zone), filled=filled, seats=seats)


def waiting_text(at, zone) -> str:
    """The host's notice when the start date passes and the full game is not dealt."""
    return _(
        "The start date ({moment}) has passed and every seat is taken: deal and start the game."
    ).format(moment=moment_words(at, zone))


def cancelled_text(title: str) -> str:
    return _("The moderator cancelled {title} before it started.").format(title=title)


# --- notices in the game's thread, the host's and the site's: kinds of a post's words ----
START_MOVED = "start_moved"
START_CLEARED = "start_cleared"
SIZE_CHANGED = "size_changed"
MIN_GAMES_CHANGED = "min_games_changed"
START_WHEN_FULL_ON = "start_when_full_on"
START_WHEN_FULL_OFF = "start_when_full_off"
SITE_STARTED = "site_started"
SITE_STARTED_TEXT = gettext_lazy(
    "All %(seats)s seats were taken: the site dealt the cards and started the game."
)
sentence(START_MOVED, gettext_lazy("The moderator set the start date to %(moment)s."))
sentence(START_CLEARED, gettext_lazy("The moderator removed the start date."))
sentence(SIZE_CHANGED, gettext_lazy("The moderator changed the game to %(seats)s seats."))
sentence(
    MIN_GAMES_CHANGED,
    gettext_lazy("The moderator now asks for %(games)s to sign up."),
    games=finished_games_words,
)
sentence(
    START_WHEN_FULL_ON,
    gettext_lazy("The site will deal and start the game as soon as every seat is taken."),
)
sentence(
    START_WHEN_FULL_OFF,
    gettext_lazy("The moderator will deal and start the game once every seat is taken."),
)
sentence(SITE_STARTED, SITE_STARTED_TEXT)


def site_started_text(seats: int) -> str:
    """The host's notification that the site started the full game."""
    return SITE_STARTED_TEXT % {"seats": seats}


# --- replacements and prods -----------------------------------------------------------------
# The public thread's notices: kinds of a post's words, worded when read.
WANTED = "replacement_wanted"
NO_LONGER_WANTED = "replacement_not_wanted"
sentence(WANTED, gettext_lazy("A replacement is wanted for %(name)s."))
sentence(NO_LONGER_WANTED, gettext_lazy("%(name)s stays: no replacement is wanted any more."))
# To the moderator when a player deleted their account (services/members.py).
MEMBER_LEFT = gettext_noop(
    "A player deleted their account: their seat, now \"a former member\", is offered to "
    "the replacement list and marked for replacement on your desk."
)

REASONS = {
    "asked": gettext_noop("asked to leave"),
    "moderator": gettext_noop("marked by the moderator"),
    "prods": gettext_noop("prodded twice"),
}


def notice(kind: str, **args) -> dict:
    """One of the thread's notices above as a post keeps it (its meaning)."""
    return meaning(kind, **args)


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


def member_left_text() -> str:
    return _(MEMBER_LEFT)[:300]
