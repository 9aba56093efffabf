"""The desk's form that adds a destination."""

from django import forms
from django.utils.translation import gettext_lazy

from games.models import WebhookEndpoint

from .narration import EVENT_LABELS
from .story import EVENTS


class EndpointForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Where"), choices=WebhookEndpoint.Kind.choices)
    address = forms.CharField(
        label=gettext_lazy("Address"),
        max_length=2000,
        help_text=gettext_lazy(
            "The webhook’s address (Discord, Slack, a signed endpoint), or the Matrix "
            "homeserver’s (https://matrix.example.org). It is stored encrypted and never "
            "shown again."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    room = forms.CharField(
        label=gettext_lazy("Matrix room id"), max_length=255, required=False,
        help_text=gettext_lazy("Matrix only: !abc123:example.org"),
    )  # fmt: skip
    token = forms.CharField(
        label=gettext_lazy("Matrix access token"), max_length=1000, required=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy("Matrix only: the bot account’s token, stored encrypted."),
    )  # fmt: skip
    events = forms.MultipleChoiceField(
        label=gettext_lazy("What to post"),
        choices=[(e, EVENT_LABELS[e]) for e in EVENTS],
        widget=forms.CheckboxSelectMultiple,
        initial=[e for e in EVENTS if e != "vote_count"],
    )
    mentions = forms.BooleanField(
        label=gettext_lazy("Mention players by name (may ping them)"), required=False
    )
