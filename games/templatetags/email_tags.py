"""Words the game emails put inside their sentences (templates/email/): a deadline as a
moment in the reader's zone and in UTC, and a phase named mid-sentence ("of day 2").

Built here rather than by an include so that a whole sentence, moment included, is one
message for the translators (an include cannot sit inside {% blocktranslate %}).
"""

import datetime

from django import template
from django.utils import formats, timezone
from django.utils.translation import pgettext

register = template.Library()


@register.simple_tag(takes_context=True)
def deadline_words(context, at) -> str:
    """ "Monday 3 March, 12:00 UTC", or for a reader on another zone "Monday 3 March,
    13:00 CET your time (Mon 3 Mar, 12:00 UTC)" (the email is rendered in their zone)."""
    if at is None:
        return ""
    utc = at.astimezone(datetime.UTC)
    if context.get("on_utc"):
        return pgettext("a moment", "%(moment)s UTC") % {
            "moment": formats.date_format(utc, "MOMENT_UTC_FORMAT")
        }
    return pgettext("a moment", "%(moment)s your time (%(utc)s UTC)") % {
        "moment": formats.date_format(timezone.localtime(at), "MOMENT_FORMAT"),
        "utc": formats.date_format(utc, "DEADLINE_UTC_FORMAT"),
    }


@register.filter
def phase_in_sentence(phase: str) -> str:
    """ "day 2" as it reads inside a sentence ("for 2 h of day 2"); the phase_label filter
    is the heading's "Day 2"."""
    kind, _, number = (phase or "").partition(" ")
    if kind == "day":
        return pgettext("phase, inside a sentence", "day %(number)s") % {"number": number}
    if kind == "night":
        return pgettext("phase, inside a sentence", "night %(number)s") % {"number": number}
    return phase
