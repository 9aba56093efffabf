from django import forms
from django.utils.translation import gettext_lazy

from games.models import PostReport

from .narration import REASONS
from .services import ANSWER_MAX, NOTE_MAX


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=gettext_lazy("Why"),
        choices=[(r.value, REASONS[r]) for r in PostReport.Reason],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=gettext_lazy("A note for the moderator (optional)"),
        required=False,
        max_length=NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class SettleForm(forms.Form):
    outcome = forms.ChoiceField(
        choices=[(s.value, s.label) for s in PostReport.State if s != PostReport.State.OPEN]
    )
    answer = forms.CharField(required=False, max_length=ANSWER_MAX)
    reason = forms.CharField(required=False, max_length=200)
