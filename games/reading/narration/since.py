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
        return _("{player} has a majority").format(player=name)
    return _("{player} is now L-{n}").format(player=name, n=left)


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
    if target and old:
        moved = (
            _("You moved your vote from {old} to {new}").format(old=old_name, new=new_name)
            if you
            else _("{voter} moved from {old} to {new}").format(
                voter=who, old=old_name, new=new_name
            )
        )
        return _("{moved}; {new_wagon}, {old} L-{n}.").format(
            moved=moved, new_wagon=wagon(new_name, left_target), old=old_name, n=left_old
        )
    if target:
        voted = (
            _("You voted for {new}").format(new=new_name)
            if you
            else _("{voter} voted for {new}").format(voter=who, new=new_name)
        )
        return _("{voted}; {wagon}.").format(voted=voted, wagon=wagon(new_name, left_target))
    withdrew = (
        _("You withdrew your vote from {old}").format(old=old_name)
        if you
        else _("{voter} withdrew their vote from {old}").format(voter=who, old=old_name)
    )
    if old:
        return _("{withdrew}; {old} is now L-{n}.").format(
            withdrew=withdrew, old=old_name, n=left_old
        )
    return _("{voter} withdrew their vote.").format(voter=who)


# --- what the seat still has to do ------------------------------------------------------------
def not_voted() -> str:
    return _("You have not voted today.")


def voted_for(target: str, names: Names) -> str:
    return _("Your vote is on {player}.").format(player=display_name(target, names))


def action_open(label: str) -> str:
    """An action the seat may take now and has not: "Coven vote: not chosen yet"."""
    return _("{action}: not chosen yet.").format(action=capitalised(label))


def action_standing(text: str) -> str:
    """An action the seat has chosen (standing_text), still open to change until the end."""
    return _("{submission} (you may change it until the deadline).").format(submission=text)


def nothing_to_do() -> str:
    return _("Nothing for you to do right now.")


# --- the daily digest ------------------------------------------------------------------------
def digest_subject(n_games: int) -> str:
    return ngettext("Your daily digest: {n} game", "Your daily digest: {n} games", n_games).format(
        n=n_games
    )
