"""Web push's reads: the profile's "How we tell you" (each kind, its email, its push)."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from games.models import PushChoice, PushSubscription
from games.queue import TOLD_KINDS

from . import keys
from .narration import kind_label

# Each kind's email, as the profile form above sets it: the User field that carries it.
EMAIL_FIELDS = {
    "role": "email_phase_changes",
    "result": "email_results",
    "reminder": "email_deadline_reminders",
    "mention": "email_mentions",
    "replacement": "email_phase_changes",
}
EMAIL_SAID = {
    "email_phase_changes": gettext_lazy("with the phase-change emails"),
    "email_deadline_reminders": gettext_lazy("yes"),
    "email_mentions": gettext_lazy("yes"),
    "email_results": gettext_lazy("yes"),
}


@dataclass
class KindRow:
    kind: str
    label: str
    email: str  # what the email side does, in words
    push: bool


@dataclass
class PushPreferences:
    enabled: bool  # the site has its keys: push can be turned on at all
    public_key: str
    rows: list[KindRow]
    browsers: list[PushSubscription]


def push_preferences(user) -> PushPreferences:
    off = set(PushChoice.objects.filter(user=user, push=False).values_list("kind", flat=True))
    rows = []
    for kind in TOLD_KINDS:
        field = EMAIL_FIELDS[kind]
        if getattr(user, field):
            email = EMAIL_SAID[field]
        else:
            email = gettext_lazy("no")
        rows.append(KindRow(kind, kind_label(kind), str(email), kind not in off))
    browsers = list(PushSubscription.objects.filter(user=user))
    return PushPreferences(keys.is_enabled(), keys.public_key(), rows, browsers)
