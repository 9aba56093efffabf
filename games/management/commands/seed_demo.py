from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.demo import DEMO_PASSWORD, demo_accounts_ensure


class Command(BaseCommand):
    help = "Create the demo accounts for a local site. Running it again changes nothing."

    def handle(self, *args, **options):
        if not settings.DEMO_SEED_ALLOWED:
            raise CommandError(
                "seed_demo creates accounts with a published password; "
                "these settings do not allow it (DEMO_SEED_ALLOWED is off)."
            )
        accounts = demo_accounts_ensure()
        # Later: the demo game is created here, seating the accounts above.
        created = sum(account.created for account in accounts)
        self.stdout.write(
            f"Demo accounts: {created} created, {len(accounts) - created} already there."
        )
        for account in accounts:
            role = "moderator (admin)" if account.user.is_staff else "player"
            self.stdout.write(f"  {account.user.email:<26} {account.user.player_name:<12} {role}")
        self.stdout.write(f"Password for all of them: {DEMO_PASSWORD}")
