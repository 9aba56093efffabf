"""`python manage.py replay_check`: does every stored game replay, by this release's engine
under the game's own revision of the rulings (W-76), to the events it announced? Exits 1
naming those that do not."""

import sys

from django.core.management.base import BaseCommand

from games.selectors.replays import describe, stored_games_that_differ


class Command(BaseCommand):
    help = "Check that every started game replays to the events it stored."

    def handle(self, *args, **options):
        differ = stored_games_that_differ()
        if differ:
            self.stderr.write(describe(differ))
            sys.exit(1)
        self.stdout.write("every stored game replays to the events it announced")
