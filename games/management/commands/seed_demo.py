"""`manage.py seed_demo` (run by `make run`): the demo accounts and one running demo game,
so that a new user sees a live game at once. Running it again changes nothing."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.demo import DEMO_PASSWORD, demo_accounts_ensure
from games import services
from games.models import Game

DEMO_GAME_TITLE = "Salem Village, 1692 (demo)"
# Twelve seats drawn from the base set and two Love & War cards, with a fixed seed so that
# every demo deals the same: 1 Holy Villager, 3 Basic Villagers, 2 Village Spies, 2 Village
# Lovers, 2 Elder and 2 Junior Witches (two thirds Villagers, W-23).
DEMO_DEAL = {
    "mode": "pool",
    "characters": [
        "priest", "acolyte", "survivalist", "judge", "dirty_old_bastard",
        "benevolent_old_dame", "inquisitor", "gambler", "recluse", "gravedigger",
        "fanatic", "loose_cannon", "cupid", "harlot",
    ],
    "types": {
        "holy_villager": 1, "basic_villager": 3, "village_spy": 2, "village_lover": 2,
        "elder_witch": 2, "junior_witch": 2,
    },
}  # fmt: skip
DEMO_SEED = 1692
DEMO_OPENING = [  # (player, post) on Day 1, to show the thread at work
    ("Abigail", "Good morning, Salem. **Someone** in this village is not who they say."),
    ("Giles", "> Someone in this village is not who they say.\n\nBold words, Abigail. Who?"),
]


@transaction.atomic
def demo_game_ensure(moderator, players):
    """A running demo game hosted by the demo moderator with the twelve demo players; a
    new one only if none is open or running. Returns (game, created)."""
    game = (
        Game.objects.filter(host=moderator, title=DEMO_GAME_TITLE)
        .exclude(status=Game.Status.FINISHED)
        .first()
    )
    if game is not None:
        return game, False
    game = services.game_create(
        host=moderator,
        ruleset="witchhunt",
        title=DEMO_GAME_TITLE,
        seats_count=len(players),
        deal=DEMO_DEAL,
        seed=DEMO_SEED,
    )
    for user in players:
        services.game_join(game=game, user=user)
    game = services.game_start(game=game, by=moderator)
    by_name = {u.player_name: u for u in players}
    for name, body in DEMO_OPENING:
        services.post_create(game=game, user=by_name[name], body=body)
    return game, True


class Command(BaseCommand):
    help = "Create the demo accounts and a running demo game. Running it again changes nothing."

    def handle(self, *args, **options):
        if not settings.DEMO_SEED_ALLOWED:
            raise CommandError(
                "seed_demo creates accounts with a published password; "
                "these settings do not allow it (DEMO_SEED_ALLOWED is off)."
            )
        accounts = demo_accounts_ensure()
        created = sum(account.created for account in accounts)
        self.stdout.write(
            f"Demo accounts: {created} created, {len(accounts) - created} already there."
        )
        for account in accounts:
            role = "moderator (admin)" if account.user.is_staff else "player"
            self.stdout.write(f"  {account.user.email:<26} {account.user.player_name:<12} {role}")
        self.stdout.write(f"Password for all of them: {DEMO_PASSWORD}")
        moderator = next(a.user for a in accounts if a.user.is_staff)
        players = [a.user for a in accounts if not a.user.is_staff]
        game, game_created = demo_game_ensure(moderator, players)
        state = "created" if game_created else "already there"
        self.stdout.write(
            f"Demo game: {game.title} ({game.phase or game.status}), {state}: /games/{game.pk}/"
        )
