"""The demo cast for `make run`: one moderator and a dozen players, all sharing one
published password. Only for settings with DEMO_SEED_ALLOWED (never production)."""

from dataclasses import dataclass

from django.contrib.auth.models import Permission

from .models import User
from .services import user_create

DEMO_PASSWORD = "witchhunt-demo"
DEMO_MODERATOR_NAME = "Moderator"
# Names from the Salem trials, which the game's theme borrows from.
DEMO_PLAYER_NAMES = (
    "Abigail", "Ann", "Bridget", "Dorcas", "Elizabeth", "Giles",
    "John", "Martha", "Mary", "Rebecca", "Sarah", "Tituba",
)  # fmt: skip


@dataclass(frozen=True)
class DemoAccount:
    user: User
    created: bool


def demo_email(player_name: str) -> str:
    return f"{player_name.lower()}@example.com"


def demo_accounts_ensure() -> list[DemoAccount]:
    """Creates whichever demo accounts are missing; running it again changes nothing."""
    accounts = []
    for name in (DEMO_MODERATOR_NAME, *DEMO_PLAYER_NAMES):
        user = User.objects.filter(email=demo_email(name)).first()
        created = user is None
        if created:
            user = user_create(
                email=demo_email(name),
                player_name=name,
                password=DEMO_PASSWORD,
                email_verified=True,
                is_admin=name == DEMO_MODERATOR_NAME,
            )
        if name == DEMO_MODERATOR_NAME:
            demo_host_permission_ensure(user)
        accounts.append(DemoAccount(user=user, created=created))
    return accounts


# The demo moderator hosts games (games.add_game) and moderates every game, not only the
# ones it hosts (games.moderate_any_game: staff status alone moderates nothing).
DEMO_MODERATOR_PERMISSIONS = ("add_game", "moderate_any_game")


def demo_host_permission_ensure(user: User) -> None:
    """The demo moderator hosts games and moderates every game. A superuser has every
    permission already; the explicit ones keep the "new game" page and the desks open to it
    even if that flag is dropped."""
    user.user_permissions.add(
        *(
            Permission.objects.get(content_type__app_label="games", codename=codename)
            for codename in DEMO_MODERATOR_PERMISSIONS
        )
    )
