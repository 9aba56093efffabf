"""The host's choice on the desk: anonymous or not, with which names."""

from django import forms
from django.utils.translation import gettext_lazy

from .themes import THEMES, theme_choices

# The new-game form's field (games/views/create.py passes it on as GAME_OPENED's extras).
FIELD = "anonymous_theme"


def new_game_choices():
    """The themes the new-game form offers (a host's own list is chosen on the desk)."""
    return [
        ("", gettext_lazy("No: players go by their own names")),
        *[(key, label) for key, (label, _) in THEMES.items()],
    ]


class AnonymityForm(forms.Form):
    theme = forms.ChoiceField(
        label=gettext_lazy("Aliases"),
        required=False,
        help_text=gettext_lazy(
            "Each seat gets a name for this game; who sits behind it stays known only to "
            "you until the final reveal."
        ),
    )
    names = forms.CharField(
        label=gettext_lazy("Your own names"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("One a line, at least one for each seat (with “My own list”)."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["theme"].choices = [
            ("", gettext_lazy("None: players go by their own names")),
            *theme_choices(),
        ]
