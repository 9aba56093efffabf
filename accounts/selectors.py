from .models import User, player_key_for


def is_player_name_taken(player_name: str, *, exclude_user: User | None = None) -> bool:
    users = User.objects.filter(player_key=player_key_for(player_name))
    if exclude_user is not None:
        users = users.exclude(pk=exclude_user.pk)
    return users.exists()
