"""The rooms' names: the meetings of W-26a, the afterlife (W-17) and the Werewolf
graveyard (WW-17)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

AFTERLIFE = "afterlife"

# Marked with gettext_noop and translated when shown, so the language is the reader's.
ROOM_LABELS = {
    "coven": N_("The Coven"),
    "juniors": N_("The Junior Witches"),
    "spies": N_("The Village Spies"),
    "musketeers": N_("The Musketeers"),
    "court": N_("The King's Court"),
    "travelers": N_("The Travelers"),
    "innkeeper": N_("The Inn"),
    "pack": N_("The pack"),
    AFTERLIFE: N_("The afterlife"),
}


def room_label(key: str, ruleset: str = "witchhunt") -> str:
    """A room's name; the Werewolf dead have a graveyard, not the Witchhunt afterlife."""
    if key == AFTERLIFE and ruleset == "werewolf":
        return _("The graveyard")
    if key.startswith("lovers-"):
        return _("The Lovers")
    return _(ROOM_LABELS[key]) if key in ROOM_LABELS else key
