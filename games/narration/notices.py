"""Where a post was written, in words, for whatever names it: the desk's lists, and the
notifications of a mention or a quote that a capability writes."""

from django.utils.translation import gettext as _

from .rooms import room_label

PUBLIC = "public"


def thread_words(thread: str, ruleset: str) -> str:
    """Where a post was written, as a place in a sentence."""
    if thread == PUBLIC:
        return _("the day thread")
    return room_label(thread, ruleset)
