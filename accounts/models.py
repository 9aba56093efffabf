import zoneinfo

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.utils.translation import gettext_lazy

from .validators import (
    PLAYER_NAME_MAX_LENGTH,
    validate_player_name,
    validate_theme,
    validate_time_zone,
)


def player_key_for(player_name: str) -> str:
    """A player name's identity: what makes two names the same, and how records spell it."""
    return player_name.lower()


# What a member who deleted their account is called wherever their name was shown (their
# posts, the seats of their games, the records' pages). Not a valid player name (it has
# spaces), so no member can take it.
FORMER_MEMBER = "a former member"


def former_member_key(pk: int) -> str:
    """An erased member's player key: unique (player_key is), a slug (the profile URL's
    converter), and never a member's (a player name has no hyphen)."""
    return f"former-member-{pk}"


def former_member_email(pk: int) -> str:
    """An erased member's address: unique (email is), never deliverable (.invalid, RFC
    2606), so their old address may sign up again."""
    return f"former-member-{pk}@deleted.invalid"


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **fields):
        if not email:
            raise ValueError("A user needs an email address.")
        # allauth stores addresses lowercased; accounts made elsewhere must match them.
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **fields):
        fields.setdefault("is_staff", False)
        fields.setdefault("is_superuser", False)
        return self._create_user(email, password, **fields)

    def create_superuser(self, email: str, password: str | None = None, **fields):
        fields.update(is_staff=True, is_superuser=True)
        return self._create_user(email, password, **fields)


class User(AbstractUser):
    """A member: signs in by email, appears in games under a player name."""

    username = None
    # The player name is the only name shown, so the inherited real-name fields are dropped.
    first_name = None
    last_name = None
    email = models.EmailField(gettext_lazy("email address"), unique=True)
    player_name = models.CharField(
        max_length=PLAYER_NAME_MAX_LENGTH,
        validators=[validate_player_name],
        help_text=gettext_lazy("Shown to other players. Letters, digits and underscores."),
    )
    # Kept in step with player_name by save(); the unique index makes names case-insensitively
    # unique, and game records refer to players by this key.
    player_key = models.CharField(max_length=PLAYER_NAME_MAX_LENGTH, unique=True, editable=False)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    # The member's language (a code of settings.LANGUAGES): their pages and their emails
    # (accounts/language.py). Blank: the pages follow the browser, the emails LANGUAGE_CODE.
    language = models.CharField(gettext_lazy("language"), max_length=16, blank=True, default="")
    # The member's colour theme: blank follows the browser (prefers-color-scheme), as a
    # visitor's pages do; "light" or "dark" is kept whatever the browser says (base.html).
    theme = models.CharField(
        gettext_lazy("theme"), max_length=8, blank=True, default="", validators=[validate_theme]
    )
    email_deadline_reminders = models.BooleanField(
        gettext_lazy("deadline reminders by email"), default=True
    )
    email_phase_changes = models.BooleanField(gettext_lazy("phase-change emails"), default=True)
    # A night's result waiting on the role page, by email (opt-in: the link, never the result).
    email_results = models.BooleanField(gettext_lazy("result emails"), default=False)
    # Coming back each day (opt-in): mentions and quotes by email, a daily digest of what
    # changed in the member's games (in their zone), and the wagon alert (one vote from a
    # lynch, or a vote landing on them), in-site and by email.
    email_mentions = models.BooleanField(
        gettext_lazy("mentions and quotes by email"), default=False
    )
    email_digest = models.BooleanField(gettext_lazy("a daily digest by email"), default=False)
    wagon_alerts = models.BooleanField(gettext_lazy("wagon alerts"), default=False)
    digest_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A mail server refused this address outright (a 5xx for the recipient): no more game
    # emails are tried to it until the member asks to try again on the profile page, or
    # changes the address (the hold is for `email_refused_to` only). games/services/outbox.py.
    email_refused_at = models.DateTimeField(null=True, blank=True, editable=False)
    email_refused_to = models.EmailField(blank=True, editable=False)
    email_refused_reply = models.CharField(max_length=300, blank=True, editable=False)
    # The header's unread count (games/services/notifications.py keeps it): read with the
    # user on every request, so the count costs no query of its own.
    notifications_unread = models.PositiveIntegerField(default=0, editable=False)
    # When the member deleted their account (games/leaving): the row stays, anonymised, for
    # the games' history (their seats, posts and acts keep pointing at it).
    left_at = models.DateTimeField(null=True, blank=True, editable=False)

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["player_name"]

    objects = UserManager()

    def __str__(self) -> str:
        return self.player_name

    def save(self, *args, **kwargs) -> None:
        if self.left_at is None:
            self.player_key = player_key_for(self.player_name)
        else:
            self.player_key = former_member_key(self.pk)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "player_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "player_key"}
        super().save(*args, **kwargs)

    def get_full_name(self) -> str:
        return self.player_name

    def get_short_name(self) -> str:
        return self.player_name

    @property
    def email_refused(self) -> bool:
        """Whether game emails to the member's current address are held: the mail server
        refused it, and the member has not asked to try again."""
        return self.email_refused_at is not None and self.email_refused_to == self.email

    @property
    def zoneinfo(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            # A zone dropped by a tzdata update must not break every page for this member.
            return zoneinfo.ZoneInfo("UTC")
