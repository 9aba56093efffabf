"""A seat changing hands (W-72, services/seats.py) in words: the public thread's notice,
naming the seat's players only."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# A sentence with {placeholders}, translated when written (services.posts fills them in).
REPLACES = gettext_noop("{new} replaces {old}.")


def sentence(key: str) -> str:
    """One of the notices above, in the active language."""
    return _(key)
