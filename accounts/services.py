from allauth.account.models import EmailAddress
from django.contrib.auth.models import Permission
from django.db import transaction

from games.permissions import HOST_GAMES, hosts

from .models import User
from .validators import validate_player_name, validate_theme, validate_time_zone


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
    *,
    user: User,
    time_zone: str,
    email_deadline_reminders: bool,
    email_phase_changes: bool,
    email_mentions: bool | None = None,
    email_results: bool | None = None,
    wagon_alerts: bool | None = None,
    email_digest: bool | None = None,
    language: str | None = None,
    theme: str | None = None,
) -> None:
    """Raises ValidationError for an unknown time zone or theme, before anything is
    written. An opt-in left out (None) stays as it was."""
    validate_time_zone(time_zone)
    if theme is not None:
        validate_theme(theme)
    user.time_zone = time_zone
    user.email_deadline_reminders = email_deadline_reminders
    user.email_phase_changes = email_phase_changes
    fields = ["time_zone", "email_deadline_reminders", "email_phase_changes"]
    for field, value in (
        ("email_mentions", email_mentions),
        ("email_results", email_results),
        ("wagon_alerts", wagon_alerts),
        ("email_digest", email_digest),
        ("language", language),
        ("theme", theme),
    ):
        if value is not None:
            setattr(user, field, value)
            fields.append(field)
    user.save(update_fields=fields)


def _host_permission(*, lock: bool = False) -> Permission:
    app_label, codename = HOST_GAMES.split(".")
    permissions = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    return (permissions.select_for_update() if lock else permissions).get()


@transaction.atomic
def host_grant_if_first(user: User) -> bool:
    """Makes `user` a host when nobody can host yet, so that on a fresh site the first
    member to sign up can open games. Returns whether it did.

    Race-safe: the permission's row is locked first, so of two sign-ups at once the second
    waits, then sees the first's grant and gets none."""
    permission = _host_permission(lock=True)
    if hosts().exists():
        return False
    user.user_permissions.add(permission)
    return True


def host_grant(user: User) -> None:
    """Lets `user` open games (manage.py host_grant; the admin does the same)."""
    user.user_permissions.add(_host_permission())


def host_revoke(user: User) -> None:
    """Takes hosting back from `user`'s own account (a group's grant stays the group's)."""
    user.user_permissions.remove(_host_permission())
