"""The host's choice on the desk: anonymous or not, with which names."""

from django import forms
from django.utils.translation import gettext_lazy

from .themes import theme_choices


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
