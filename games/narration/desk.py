"""The moderator's log on the desk in words (selectors/desk.py moderator_log, W-72): the
engine inputs a moderator made and the posts they hid or showed again. The phase is
named as a sentence names it, in the reader's language; a hide's reason is the
moderator's own words, never translated; a hidden post's text is never shown."""

from django.utils.translation import gettext

from .labels import display_name, phase_words
from .notices import thread_words


def act_text(step, phase, names) -> str:
    """One engine input of the moderator's (`step`, as the record keeps it)."""
    if step.get("advance") == "phase":
        return gettext("Ended %(phase)s before its deadline (advance now).") % {
            "phase": phase_words(phase)
        }
    if step.get("advance") == "midnight":
        return gettext("Passed midnight in %(phase)s.") % {"phase": phase_words(phase)}
    if step.get("moderator") == "remove":
        player = step.get("player")
        return gettext("Removed %(name)s from the game (W-72).") % {
            "name": names.get(player, player)
        }
    if step.get("moderator") == "stalemate":
        return gettext("Declared a stalemate (W-72b).")
    return str(step)


def moderation_text(*, shown: bool, seat: str, number: int, thread: str, ruleset: str,
                    reason: str, names) -> str:  # fmt: skip
    """A hide or a show of a post: the reason, never the post's text."""
    words = {
        "name": display_name(seat, names),
        "number": number,
        "thread": thread_words(thread, ruleset),
        "reason": reason,
    }
    if shown:
        return gettext("Showed %(name)s’s post #%(number)s in %(thread)s again.") % words
    if reason:
        return gettext("Hid %(name)s’s post #%(number)s in %(thread)s: %(reason)s") % words
    return gettext("Hid %(name)s’s post #%(number)s in %(thread)s.") % words
