"""The rooms' names: the meetings of W-26a, the afterlife (W-17) and the Werewolf
graveyard (WW-17)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

AFTERLIFE = "afterlife"

# Marked with gettext_noop (by that name: makemessages knows no alias) and translated
# when shown, so the language is the reader's.
ROOM_LABELS = {
    "coven": gettext_noop("The Coven"),
    "juniors": gettext_noop("The Junior Witches"),
    "spies": gettext_noop("The Village Spies"),
    "musketeers": gettext_noop("The Musketeers"),
    "court": gettext_noop("The King's Court"),
    "travelers": gettext_noop("The Travelers"),
    "innkeeper": gettext_noop("The Inn"),
    "pack": gettext_noop("The pack"),
    AFTERLIFE: gettext_noop("The afterlife"),
}


def room_label(key: str, ruleset: str = "witchhunt") -> str:
    """A room's name; the Werewolf dead have a graveyard, not the Witchhunt afterlife."""
    if key == AFTERLIFE and ruleset == "werewolf":
        return _("The graveyard")
    if key.startswith("lovers-"):
        return _("The Lovers")
    return _(ROOM_LABELS[key]) if key in ROOM_LABELS else key
