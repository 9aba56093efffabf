"""`manage.py seed_demo` (run by `make run`): the demo accounts and one running demo game,
so that a new user sees a live game at once; beside it a game open for sign-ups (three
seats left: the site deals when the last is taken) and a finished one (its reveal, its
sealed deal, the archive and the players' profiles). Running it again changes nothing."""

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from accounts.demo import DEMO_PASSWORD, demo_accounts_ensure
from games import services
from games.lab.simulation.setups import suggested
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


SIGNUPS_TITLE = "Andover, 1692: sign-ups open (demo game)"
FINISHED_TITLE = "Salem Town, 1691: finished (demo game)"


def _demo_setup_game(moderator, title, **options):
    """The demo moderator's game `title` on the suggested eight-seat setup, or None when it
    is there already."""
    if Game.objects.filter(host=moderator, title=title).exists():
        return None
    setup = suggested("witchhunt", 8)
    return services.game_create(
        host=moderator,
        ruleset="witchhunt",
        title=title,
        seats_count=setup.seats,
        deal=setup.deal,
        options=setup.options,
        seed=DEMO_SEED + len(title),
        **options,
    )


@transaction.atomic
def demo_signups_ensure(moderator, players) -> bool:
    """Five of eight seats taken, starting when full or in three days."""
    game = _demo_setup_game(
        moderator,
        SIGNUPS_TITLE,
        signups_close_at=timezone.now() + timedelta(days=3),
        start_when_full=True,
        prod_after=timedelta(hours=48),
    )
    if game is None:
        return False
    for user in players[-5:]:
        services.game_join(game=game, user=user)
    return True


@transaction.atomic
def demo_finished_ensure(moderator, players) -> bool:
    """Eight players, a word each, then the moderator's stalemate (W-72b): the Witches win."""
    game = _demo_setup_game(moderator, FINISHED_TITLE)
    if game is None:
        return False
    for user in players[:8]:
        services.game_join(game=game, user=user)
    game = services.game_start(game=game, by=moderator)
    for user in players[:2]:
        services.post_create(game=game, user=user, body="Nobody is talking. That is a bad sign.")
    services.stalemate_declare(game=game, by=moderator)
    return True


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
        for title, ensure in (
            (SIGNUPS_TITLE, demo_signups_ensure),
            (FINISHED_TITLE, demo_finished_ensure),
        ):
            state = "created" if ensure(moderator, players) else "already there"
            self.stdout.write(f"Demo game: {title}, {state}")
