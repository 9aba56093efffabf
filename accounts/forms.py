from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext_lazy

from .language import language_field
from .selectors import is_player_name_taken
from .validators import PLAYER_NAME_MAX_LENGTH, THEME_REFUSED, validate_player_name
from .zones import UTC, zone_choices

NAME_TAKEN = gettext_lazy("That player name is already taken.")


class UniquePlayerNameMixin:
    """Refuses a name that differs from a member's only in case, with a readable message
    (the unique index on player_key is the last line of defence)."""

    def clean_player_name(self) -> str:
        player_name = self.cleaned_data["player_name"]
        instance = getattr(self, "instance", None)  # set on model forms (the admin's)
        exclude_user = instance if instance is not None and instance.pk else None
        if is_player_name_taken(player_name, exclude_user=exclude_user):
            raise ValidationError(NAME_TAKEN, code="taken")
        return player_name


class SignupConflict(Exception):
    """The sign-up lost a race: its form now carries the error to show (accounts/views.py)."""


def time_zone_field(*, browser_guess: bool, help_text: str) -> forms.ChoiceField:
    """The zone select of the sign-up and profile forms: zones.zone_choices, grouped by
    region. With `browser_guess`, static/js/timezone.js may select the browser's zone while
    the visitor has not touched the select (it is only a guess for someone new), and the
    field may be left out (the adapter then takes the browser's zone, or UTC)."""
    attrs = {"data-browser-zone": ""} if browser_guess else {}
    return forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        choices=zone_choices,
        initial=UTC,
        required=not browser_guess,
        widget=forms.Select(attrs=attrs),
        help_text=help_text,
    )


class SignupForm(UniquePlayerNameMixin, AllauthSignupForm):
    player_name = forms.CharField(
        max_length=PLAYER_NAME_MAX_LENGTH,
        validators=[validate_player_name],
        label=gettext_lazy("Player name"),
        help_text=gettext_lazy("Shown to other players in games. Letters, digits and underscores."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    time_zone = time_zone_field(
        browser_guess=True,
        help_text=gettext_lazy(
            "Deadlines and posts are shown in this zone, your browser's unless you "
            "pick another. You can change it on your profile."
        ),
    )
    language = language_field(
        help_text=gettext_lazy("The site and your emails are written in this language.")
    )
    field_order = ["email", "player_name", "password1", "password2", "time_zone", "language"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The language the visitor reads the sign-up page in, so that their emails, which
        # have no browser to follow, come in it too.
        self.fields["language"].initial = translation.get_language()

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
                    ValidationError(NAME_TAKEN, code="taken"),
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


class ProfileForm(forms.Form):
    time_zone = time_zone_field(
        browser_guess=False,
        help_text=gettext_lazy("Every date and time on the site is shown in this zone."),
    )
    language = language_field(
        help_text=gettext_lazy(
            "The site and your emails are written in this language. Your browser’s: "
            "the site follows your browser, your emails are in English."
        )
    )
    theme = forms.ChoiceField(
        label=gettext_lazy("Theme"),
        choices=[
            ("", gettext_lazy("My browser’s (light or dark, as it is set)")),
            ("light", gettext_lazy("Light")),
            ("dark", gettext_lazy("Dark")),
        ],
        required=False,
        error_messages={"invalid_choice": THEME_REFUSED},
    )
    email_deadline_reminders = forms.BooleanField(
        required=False, label=gettext_lazy("Email me before a deadline in a game I play in")
    )
    email_phase_changes = forms.BooleanField(
        required=False,
        label=gettext_lazy("Email me when a game I play in moves to its next phase"),
    )
    email_mentions = forms.BooleanField(
        required=False,
        label=gettext_lazy("Email me when someone mentions me (@name) or quotes my post"),
    )
    email_results = forms.BooleanField(
        required=False,
        label=gettext_lazy("Email me when a new result waits on my role page in a game I play in"),
    )
    wagon_alerts = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Tell me (here and by email) when a wagon is one vote from a lynch, "
            "and when a vote lands on me"
        ),
    )
    email_digest = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Email me a daily digest of what changed in my games, each morning at 07:00 my time"
        ),
    )

    def __init__(self, *args, current_zone: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # The member's own zone stays choosable even when it is not on the list.
        self.fields["time_zone"].choices = zone_choices(current_zone)
