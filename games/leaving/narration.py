"""The words of leaving: the refusals, the notice in a leaving host's games, the email."""

from django.utils.translation import gettext_lazy as _

from games.narration.said import sentence

# What the member types to confirm (the page shows it; compared without case or spaces
# around it).
CONFIRMATION = "delete my account"

REFUSALS = {
    "gone": _("This account is already deleted."),
    "no_moderator": _(
        "You host a game that is still running, and the site has no other moderator to "
        "take it over. Finish the game, or ask the site's admins to give someone the "
        "moderation of every game, then come back."
    ),
    "confirmation": _("Type “delete my account” to confirm."),
    "password": _("That is not your password: nothing was deleted."),
}

HOST_LEFT = "host_left"  # the kind of the thread's notice (games/narration/said.py)
sentence(
    HOST_LEFT,
    _(
        "The host of %(title)s has left the site. The site's moderators run the game from "
        "now on; the clock goes on as before."
    ),
)

GOODBYE_SUBJECT = _("Your Witchhunt account is deleted")
GOODBYE_BODY = _(
    "Your Witchhunt account has been deleted, as asked.\n\n"
    "Your name, this address, your notes, preferences and absences are gone. Your seats "
    "in running games were offered to the replacement list, and finished games show "
    'you as "a former member". This cannot be undone; you may sign up again with this '
    "address as a new member.\n\n"
    "— Witchhunt\n"
)


def refusal_words(key: str) -> str:
    return str(REFUSALS[key])
