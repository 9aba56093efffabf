from django import forms
from django.utils.translation import gettext, gettext_lazy

from .narration import CONFIRMATION, refusal_words


class LeaveForm(forms.Form):
    """Typed confirmation, and the member's password when they have one (an account made
    through a social sign-in may have none: the typed words alone then)."""

    confirmation = forms.CharField(
        max_length=40, strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )  # fmt: skip
    password = forms.CharField(
        label=gettext_lazy("Your password"), required=False, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )  # fmt: skip

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        # The words to type stay as the site compares them; the sentence is the reader's.
        self.fields["confirmation"].label = gettext("Type “%(words)s”") % {"words": CONFIRMATION}

    def clean_confirmation(self):
        text = " ".join(self.cleaned_data["confirmation"].split()).lower()
        if text != CONFIRMATION:
            raise forms.ValidationError(refusal_words("confirmation"))
        return text

    def clean_password(self):
        password = self.cleaned_data.get("password", "")
        if self.user.has_usable_password() and not self.user.check_password(password):
            raise forms.ValidationError(refusal_words("password"))
        return password


class AdminEraseForm(forms.Form):
    """The admin's confirmation: the word typed, for one or several members at once."""

    confirmation = forms.CharField(label=gettext_lazy("Type “delete” to confirm"), max_length=20)

    def clean_confirmation(self):
        if self.cleaned_data["confirmation"].strip().lower() != "delete":
            raise forms.ValidationError(gettext("Type “delete” to confirm: nothing was deleted."))
        return "delete"
