from allauth.account.models import EmailAddress
from django.db import transaction

from .models import User
from .validators import validate_player_name, validate_time_zone


@transaction.atomic
def user_create(
    *,
    email: str,
    player_name: str,
    password: str,
    email_verified: bool = False,
    is_admin: bool = False,
) -> User:
    """A member created outside sign-up (demo data, fixtures). Sign-up itself is allauth's.
    An admin may use the Django admin with every permission.

    Raises ValidationError for a bad player name and IntegrityError for a taken email or name.
    """
    validate_player_name(player_name)
    user = User.objects.create_user(
        email=email,
        password=password,
        player_name=player_name,
        is_staff=is_admin,
        is_superuser=is_admin,
    )
    # allauth decides whether an address is verified from its own table, not the user row.
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=email_verified)
    return user


def user_profile_update(
    *, user: User, time_zone: str, email_deadline_reminders: bool, email_phase_changes: bool
) -> None:
    """Raises ValidationError for an unknown time zone."""
    validate_time_zone(time_zone)
    user.time_zone = time_zone
    user.email_deadline_reminders = email_deadline_reminders
    user.email_phase_changes = email_phase_changes
    user.save(update_fields=["time_zone", "email_deadline_reminders", "email_phase_changes"])
