"""The viewer's words: the names of its views."""

from django.utils.translation import gettext as _

from .timeline import EVERYTHING, PUBLIC_VIEW


def view_labels() -> dict:
    """Each view's name, in the reader's language; "seat" takes the seat's player name."""
    return {
        PUBLIC_VIEW: _("As everyone saw it"),
        EVERYTHING: _("Everything"),
        "seat": _("As %(name)s saw it"),
    }
