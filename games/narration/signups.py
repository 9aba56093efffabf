"""Sign-ups and absences in words (games/services/signups.py, services/absences.py): the
refusals a member reads, the host's and players' notifications, and the notices in a
game's thread. A moment in a notification is written in its reader's zone, given as a
ZoneInfo; a moment in a thread notice is a placeholder (games/post_times.py)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext


def day_words(at, zone) -> str:
    """A day as a player list says it: "Fri 4 Dec"."""
    local = at.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b}"


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


# --- notices in the game's thread, the host's and the site's (moments as placeholders) ----
START_MOVED = gettext_lazy("The moderator set the start date to {moment}.")
START_CLEARED = gettext_lazy("The moderator removed the start date.")
SIZE_CHANGED = gettext_lazy("The moderator changed the game to {seats} seats.")
MIN_GAMES_CHANGED = gettext_lazy("The moderator now asks for {games} to sign up.")
START_WHEN_FULL_ON = gettext_lazy(
    "The site will deal and start the game as soon as every seat is taken."
)
START_WHEN_FULL_OFF = gettext_lazy(
    "The moderator will deal and start the game once every seat is taken."
)
SITE_STARTED = gettext_lazy(
    "All {seats} seats were taken: the site dealt the cards and started the game."
)
