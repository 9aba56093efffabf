"""Coming back, in words: a thread's name, the vote moves of "since you last read" with
their wagon counts (L-n: the votes a player still needs for a majority, W-4), what a seat
still has to do, and the daily digest's subject.

Plain data in, whole sentences out: the selectors (games/reading/selectors/) decide what
the viewer may see before anything reaches these functions.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.narration.labels import Names, capitalised, display_name
from games.narration.rooms import room_label

PUBLIC = "public"  # the public thread's key (selectors.threads.PUBLIC)


def thread_label(key: str, ruleset: str = "witchhunt") -> str:
    """A thread's name: the public thread (the day thread), or a room's."""
    if key == PUBLIC:
        return _("The public thread")
    return room_label(key, ruleset)


def wagon(name: str, left: int) -> str:
    """One wagon after a vote moved: "Eve is now L-3", or a majority reached (W-4)."""
    if left <= 0:
        return _("%(player)s has a majority") % {"player": name}
    return _("%(player)s is now L-%(n)s") % {"player": name, "n": left}


def vote_move(
    *,
    voter: str,
    old: str | None,
    target: str | None,
    left_target: int | None,
    left_old: int | None,
    names: Names,
    viewer: str | None = None,
) -> str:
    """A day vote that moved, in words with the wagons it changed: "Cat moved from Dan to
    Eve; Eve is now L-3, Dan L-2." `left_*` are the votes each still needs (L-n)."""
    you = viewer is not None and voter == viewer
    who = display_name(voter, names)
    new_name = display_name(target, names) if target else ""
    old_name = display_name(old, names) if old else ""
    # Each sentence whole; the wagon's clause (wagon()) is one of its arguments.
    args = {"voter": who, "old": old_name, "new": new_name, "n": left_old}
    if target and old:
        args["wagon"] = wagon(new_name, left_target)
        if you:
            return (
                _("You moved your vote from %(old)s to %(new)s; %(wagon)s, %(old)s L-%(n)s.") % args
            )
        return _("%(voter)s moved from %(old)s to %(new)s; %(wagon)s, %(old)s L-%(n)s.") % args
    if target:
        args["wagon"] = wagon(new_name, left_target)
        if you:
            return _("You voted for %(new)s; %(wagon)s.") % args
        return _("%(voter)s voted for %(new)s; %(wagon)s.") % args
    if old:
        if you:
            return _("You withdrew your vote from %(old)s; %(old)s is now L-%(n)s.") % args
        return _("%(voter)s withdrew their vote from %(old)s; %(old)s is now L-%(n)s.") % args
    return _("%(voter)s withdrew their vote.") % args


# --- what the seat still has to do ------------------------------------------------------------
def not_voted() -> str:
    return _("You have not voted today.")


def voted_for(target: str, names: Names) -> str:
    return _("Your vote is on %(player)s.") % {"player": display_name(target, names)}


def action_open(label: str) -> str:
    """An action the seat may take now and has not: "Coven vote: not chosen yet"."""
    return _("%(action)s: not chosen yet.") % {"action": capitalised(label)}


def action_standing(text: str) -> str:
    """An action the seat has chosen (standing_text), still open to change until the end."""
    return _("%(submission)s (you may change it until the deadline).") % {"submission": text}


def nothing_to_do() -> str:
    return _("Nothing for you to do right now.")


# --- the daily digest ------------------------------------------------------------------------
def digest_subject(n_games: int) -> str:
    return ngettext("Your daily digest: %(n)s game", "Your daily digest: %(n)s games", n_games) % {
        "n": n_games
    }
