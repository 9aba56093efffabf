from django.contrib.auth.models import Permission
from django.db.models import Q

from .models import User, player_key_for


def is_player_name_taken(player_name: str, *, exclude_user: User | None = None) -> bool:
    users = User.objects.filter(player_key=player_key_for(player_name))
    if exclude_user is not None:
        users = users.exclude(pk=exclude_user.pk)
    return users.exists()


# The message names a few people to ask; it is no staff list.
_GRANTERS_SHOWN = 5


def host_granter_names() -> list[str]:
    """Player names of the members who can make someone a host (docs/hosting.md): active
    superusers, and active staff allowed to change users, directly or through a group."""
    change_user = Q(content_type__app_label=User._meta.app_label, codename="change_user")
    granters = User.objects.filter(is_active=True).filter(
        Q(is_superuser=True)
        | Q(is_staff=True, user_permissions__in=Permission.objects.filter(change_user))
        | Q(is_staff=True, groups__permissions__in=Permission.objects.filter(change_user))
    )
    names = granters.distinct().order_by("player_key").values_list("player_name", flat=True)
    return list(names[:_GRANTERS_SHOWN])
