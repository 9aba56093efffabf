from django import forms

from games.queue import TOLD_KINDS


class PushChoicesForm(forms.Form):
    """The kinds of news a member wants by push (checked boxes); unknown kinds are refused."""

    push = forms.MultipleChoiceField(
        choices=[(k, k) for k in TOLD_KINDS], required=False, widget=forms.CheckboxSelectMultiple
    )
