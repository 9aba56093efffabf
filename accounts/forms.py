from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.exceptions import ValidationError

from .selectors import is_player_name_taken
from .validators import PLAYER_NAME_MAX_LENGTH, available_time_zones, validate_player_name


class UniquePlayerNameMixin:
    """Refuses a name that differs from a member's only in case, with a readable message
    (the unique index on player_key is the last line of defence)."""

    def clean_player_name(self) -> str:
        player_name = self.cleaned_data["player_name"]
        instance = getattr(self, "instance", None)  # set on model forms (the admin's)
        exclude_user = instance if instance is not None and instance.pk else None
        if is_player_name_taken(player_name, exclude_user=exclude_user):
            raise ValidationError("That player name is already taken.", code="taken")
        return player_name


class SignupForm(UniquePlayerNameMixin, AllauthSignupForm):
    player_name = forms.CharField(
        max_length=PLAYER_NAME_MAX_LENGTH,
        validators=[validate_player_name],
        help_text="Shown to other players in games. Letters, digits and underscores.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    field_order = ["email", "player_name", "password1", "password2"]


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(available_time_zones())]


class ProfileForm(forms.Form):
    time_zone = forms.ChoiceField(
        choices=_time_zone_choices,
        help_text="Every date and time on the site is shown in this zone.",
    )
    email_deadline_reminders = forms.BooleanField(
        required=False, label="Email me before a deadline in a game I play in"
    )
    email_phase_changes = forms.BooleanField(
        required=False, label="Email me when a game I play in moves to its next phase"
    )
