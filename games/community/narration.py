"""The community in words: sign-ups and absences (services/signups.py, services/absences.py)
and replacements and prods (services/replacements.py, services/prods.py).

Sign-ups: the refusals a member reads, the host's and players' notifications, and the
notices in a game's thread. A moment in a notification is written in its reader's zone,
given as a ZoneInfo; a thread notice is stored as meaning and worded when read, in each
reader's language and zone (games/narration/said.py: its kinds are registered here).

Replacements and prods: the public thread's notices, the in-site notifications and the
emails' one-line summaries. Only public facts are named: a seat by its player's name, the
game, the phase; never a card, an alignment or a private thread."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.narration import phase_label
from games.narration.said import STAMP, meaning, sentence


def day_words(at, zone) -> str:
    """A day as a player list says it: "Fri 4 Dec" (the language's DAY_FORMAT)."""
    return formats.date_format(at.astimezone(zone), "DAY_FORMAT")


def moment_words(at, zone) -> str:
    """A moment in one member's words and zone: "Fri 4 Dec 2026, 18:00 (Europe/Paris)"."""
    local = at.astimezone(zone)
    return _("%(day)s %(year)s, %(time)s (%(zone)s)") % {
        "day": day_words(at, zone), "year": local.year, "time": f"{local:%H:%M}", "zone": zone.key
    }  # fmt: skip


def finished_games_words(count: int) -> str:
    return ngettext("%(n)s finished game", "%(n)s finished games", count) % {"n": count}


def too_few_games(needed: int, played: int) -> str:
    """Why a member may not sign up: "This game asks for 3 finished games; you have
    finished 1." """
    return _("this game asks for %(needed)s; you have finished %(played)s") % {
        "needed": finished_games_words(needed), "played": played
    }  # fmt: skip


# --- the host's and players' notifications: kinds of a notification's words -------------
FULL = "note_signup_full"
STARTED = "note_signup_started"
LAPSED = "note_signup_lapsed"
WAITING = "note_signup_waiting"


def _zoned(value) -> str:
    """A moment kept with its reader's zone ({"at", "zone"}): in that zone's words."""
    return moment_words(datetime.fromisoformat(value["at"]), ZoneInfo(value["zone"]))


def zoned(at, zone) -> dict:
    return {"at": at.astimezone(ZoneInfo("UTC")).strftime(STAMP), "zone": zone.key}


sentence(FULL, gettext_lazy("Every seat is taken: you can deal the cards and start the game."))
sentence(STARTED, gettext_lazy("The game has started: your cards are on your role page."))
sentence(
    LAPSED,
    gettext_lazy(
        "The start date (%(moment)s) has passed with %(filled)s of %(seats)s seats taken. "
        "Move the date, make the game smaller, or cancel it."
    ),
    moment=_zoned,
)
sentence(
    WAITING,
    gettext_lazy(
        "The start date (%(moment)s) has passed and every seat is taken: deal and start the game."
    ),
    moment=_zoned,
)


def full_words() -> dict:
    return meaning(FULL)


def started_words() -> dict:
    return meaning(STARTED)


def lapsed_words(filled: int, seats: int, at, zone) -> dict:
    """The host's notice when the start date passes and the game is not full."""
    return meaning(LAPSED, moment=zoned(at, zone), filled=filled, seats=seats)


def waiting_words(at, zone) -> dict:
    """The host's notice when the start date passes and the full game is not dealt."""
    return meaning(WAITING, moment=zoned(at, zone))


CANCELLED = "note_signup_cancelled"  # the game is gone: its title is in the words
CANCELLED_SENTENCE = gettext_lazy("The moderator cancelled %(title)s before it started.")
sentence(CANCELLED, CANCELLED_SENTENCE)


def cancelled_text(title: str) -> str:
    return str(CANCELLED_SENTENCE) % {"title": title}


def cancelled_words(title: str) -> dict:
    """The notification of a player signed up for a game cancelled before its start."""
    return meaning(CANCELLED, title=title)


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


def site_started_words(seats: int) -> dict:
    """The host's notification that the site started the full game (the thread's words)."""
    return meaning(SITE_STARTED, seats=seats)


# --- replacements and prods -----------------------------------------------------------------
# The public thread's notices: kinds of a post's words, worded when read.
WANTED = "replacement_wanted"
NO_LONGER_WANTED = "replacement_not_wanted"
sentence(WANTED, gettext_lazy("A replacement is wanted for %(name)s."))
sentence(NO_LONGER_WANTED, gettext_lazy("%(name)s stays: no replacement is wanted any more."))
# To the moderator when a player deleted their account (services/members.py).
MEMBER_LEFT = gettext_noop(
    'A player deleted their account: their seat, now "a former member", is offered to '
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


# The notifications of replacements and prods: kinds of a notification's words.
OFFER = "note_offer"
LEAVE_ASKED = "note_leave_asked"
LEAVE_ASKED_WHY = "note_leave_asked_why"
MEMBER_LEFT_NOTE = "note_member_left"
PRODDED_YOU = "note_prodded_you"
PRODDED_YOU_AGAIN = "note_prodded_you_again"
PRODDED = "note_prodded"
PRODDED_AGAIN = "note_prodded_again"

sentence(
    OFFER,
    gettext_lazy("%(name)s's seat in %(title)s is offered to you (%(when)s): take it or decline."),
    when=phase_label,
)
sentence(LEAVE_ASKED, gettext_lazy("%(name)s asked to be replaced."))
sentence(LEAVE_ASKED_WHY, gettext_lazy("%(name)s asked to be replaced: “%(note)s”"))
sentence(MEMBER_LEFT_NOTE, gettext_lazy(MEMBER_LEFT))
sentence(
    PRODDED_YOU,
    gettext_lazy("You have not posted for a while in %(when)s: please post."),
    when=phase_label,
)
sentence(
    PRODDED_YOU_AGAIN,
    gettext_lazy(
        "Second prod in %(when)s: your seat is now marked for replacement. Post, or ask "
        "the moderator to keep you."
    ),
    when=phase_label,
)
sentence(
    PRODDED,
    gettext_lazy("%(name)s was prodded (%(when)s): no post for the game's prod time."),
    when=phase_label,
)
sentence(
    PRODDED_AGAIN,
    gettext_lazy("%(name)s was prodded a second time (%(when)s) and is marked for replacement."),
    when=phase_label,
)


def offer_words(name: str, title: str, phase: str) -> dict:
    """To a volunteer: a seat offered (the game and the phase key, nothing of the cards)."""
    return meaning(OFFER, name=name, title=title, when=phase)


def leave_asked_words(name: str, note: str) -> dict:
    """To the moderator: a player asked to be replaced, with their reason if they gave one."""
    if note:
        return meaning(LEAVE_ASKED_WHY, name=name, note=note)
    return meaning(LEAVE_ASKED, name=name)


def prod_words(number: int, phase: str, *, name: str = "", you: bool) -> dict:
    """A prod (issue 16's prod rule): to the player (`you`) or to the moderator; `phase`
    its key."""
    if you:
        return meaning(PRODDED_YOU if number == 1 else PRODDED_YOU_AGAIN, when=phase)
    return meaning(PRODDED if number == 1 else PRODDED_AGAIN, name=name, when=phase)


def member_left_words() -> dict:
    return meaning(MEMBER_LEFT_NOTE)


def note_too_long(most: int) -> str:
    """The refusal of a note (a volunteer's, an absence's) longer than `most` characters."""
    return ngettext(
        "keep the note to %(count)s character", "keep the note to %(count)s characters", most
    ) % {"count": most}
