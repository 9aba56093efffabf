from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

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


class SignupConflict(Exception):
    """The sign-up lost a race: its form now carries the error to show (accounts/views.py)."""


class SignupForm(UniquePlayerNameMixin, AllauthSignupForm):
    player_name = forms.CharField(
        max_length=PLAYER_NAME_MAX_LENGTH,
        validators=[validate_player_name],
        help_text="Shown to other players in games. Letters, digits and underscores.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    field_order = ["email", "player_name", "password1", "password2"]

    def try_save(self, request):
        """allauth's save, in its own transaction. Two people may pass the checks above at
        the same moment with the same player name or address; the loser's insert then
        breaks a unique index, and is answered as if the winner had been there first."""
        try:
            with transaction.atomic():
                return super().try_save(request)
        except IntegrityError:
            if is_player_name_taken(self.cleaned_data["player_name"]):
                self.add_error(
                    "player_name",
                    ValidationError("That player name is already taken.", code="taken"),
                )
                raise SignupConflict from None
            try:
                # Sets account_already_exists (allauth answers as for a new account and
                # mails the address's owner, so sign-up never tells who is a member), or
                # raises where the site shows that an address is taken.
                self.validate_unique_email(self.cleaned_data["email"])
            except ValidationError as error:
                self.add_error("email", error)
                raise SignupConflict from None
            if not self.account_already_exists:
                raise
            return super().try_save(request)


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
