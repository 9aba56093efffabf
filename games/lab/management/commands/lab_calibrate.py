"""`python manage.py lab_calibrate`: the lab's estimates set beside test games it did not
estimate, as docs/lab.md's calibration table.

For each suggested setup (or those named): the estimate for typical play with its 95%
interval, the Village's band from careless to sharp play, and `--observed` seeded test
games, each played by bots of a skill drawn for that game, with their Village share and
interval; "inside?" says whether that interval meets what the lab answered
(games/lab/simulation/calibration.py). The test games are played in this process by the
lab's bots, not stored as site games. No database is touched.
"""

import os

from django.core.management.base import BaseCommand, CommandError

from games.lab.simulation.calibration import calibrate
from games.lab.simulation.report import calibration_table
from games.lab.simulation.setups import SUGGESTED, find_suggested


class Command(BaseCommand):
    help = "Set the lab's estimates of the suggested setups beside seeded test games."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument(
            "setups", nargs="*", help="suggested setups (witchhunt-12); default: every one"
        )
        parser.add_argument("--games", type=int, default=1000, help="games per estimate")
        parser.add_argument("--observed", type=int, default=500, help="test games per setup")
        parser.add_argument("--seed", type=int, default=1, help="the estimates' seed")
        parser.add_argument(
            "--workers",
            type=int,
            default=os.cpu_count() or 1,
            help="processes to play the estimates on (default: every core)",
        )

    def handle(self, *args, setups, games, observed, seed, workers, **options):
        if games < 1 or observed < 1 or workers < 1:
            raise CommandError("--games, --observed and --workers must be 1 or more")
        chosen = [s for group in SUGGESTED.values() for s in group]
        if setups:
            chosen = [find_suggested(ref) for ref in setups]
            if None in chosen:
                missing = setups[chosen.index(None)]
                raise CommandError(f"no suggested setup {missing!r}")
        rows = [
            calibrate(s, games=games, observed=observed, seed=seed, workers=workers) for s in chosen
        ]
        self.stdout.write(
            f"Calibration ({games:,} games an estimate, seed {seed}; {observed:,} test "
            "games a setup, each by bots of a skill drawn for it):"
        )
        for line in calibration_table(rows):
            self.stdout.write(line)
