"""The host's choices for spectators: on the new-game form (prefixed, in its "fields" slot)
and on the desk before the start."""

from django import forms
from django.utils.translation import gettext_lazy

from games.models import SpectatorSettings

PREFIX = "spectators"


class SpectatorChoicesForm(forms.Form):
    allowed = forms.BooleanField(
        label=gettext_lazy("Allow spectators"),
        required=False,
        help_text=gettext_lazy(
            "Members who do not play may follow the game: every card, every room and the "
            "night actions, on a page of their own, and a thread of their own that no player "
            "reads. A spectator can never take a seat in the game."
        ),
    )
    delay = forms.ChoiceField(
        label=gettext_lazy("What spectators see"),
        choices=SpectatorSettings.Delay.choices,
        initial=SpectatorSettings.Delay.NONE,
        required=False,  # a form posted without it (an older page): no delay
        help_text=gettext_lazy(
            "One phase behind: spectators see the game as it stood when the previous phase "
            "began, so nothing they might let slip is fresh."
        ),
    )
    dead_see = forms.BooleanField(
        label=gettext_lazy("The dead see what spectators see (Werewolf)"),
        required=False,
        help_text=gettext_lazy(
            "A dead Werewolf player otherwise sees no more than the living (the graveyard)."
        ),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", PREFIX)
        super().__init__(*args, **kwargs)

    def clean_delay(self):
        return self.cleaned_data["delay"] or SpectatorSettings.Delay.NONE


def choices_initial(row: SpectatorSettings | None) -> dict:
    if row is None:
        return {}
    return {"allowed": row.allowed, "delay": row.delay, "dead_see": row.dead_see}
