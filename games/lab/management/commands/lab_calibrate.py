"""`python manage.py lab_calibrate`: the lab's estimates set beside test games it did not
estimate, as docs/lab.md's calibration table.

For each suggested setup (or those named): the estimate for typical play with its 95%
interval, the Village's band from careless to sharp play, and `--observed` seeded test
games, each played by bots of a skill drawn for that game, with their Village share and
interval; "inside?" says whether that interval meets what the lab answered
(games/lab/simulation/calibration.py). The test games are played in this process by the
lab's bots; with `--site-games` (a test or development database: it makes calibration
members and games) each one that ended is played again on the site as a finished game of
its own (games/lab/services/calibration.py), and the observed column is what the page's
"finished games on this site" reads (selectors.lab_observed). Without it, no database is
touched.
"""

import os
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError

from games.lab.simulation.calibration import VILLAGE, calibrate
from games.lab.simulation.estimate import TeamRate
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
        parser.add_argument(
            "--site-games",
            action="store_true",
            help="play each test game that ended again on the site, as a finished game "
            "(a test or development database)",
        )

    def handle(self, *args, setups, games, observed, seed, workers, site_games, **options):
        if games < 1 or observed < 1 or workers < 1:
            raise CommandError("--games, --observed and --workers must be 1 or more")
        chosen = [s for group in SUGGESTED.values() for s in group]
        if setups:
            chosen = [find_suggested(ref) for ref in setups]
            if None in chosen:
                missing = setups[chosen.index(None)]
                raise CommandError(f"no suggested setup {missing!r}")
        if site_games:
            rows = [self.on_site(s, games, observed, seed, workers) for s in chosen]
        else:
            rows = [
                calibrate(s, games=games, observed=observed, seed=seed, workers=workers)
                for s in chosen
            ]
        where = "finished site games" if site_games else "test games"
        self.stdout.write(
            f"Calibration ({games:,} games an estimate, seed {seed}; {observed:,} {where} "
            "a setup, each by bots of a skill drawn for it):"
        )
        for line in calibration_table(rows):
            self.stdout.write(line)

    def on_site(self, setup, games, observed, seed, workers):
        """The estimate and its band, beside the test games played as site games: the
        observed column as the page reads it (every finished game of the setup)."""
        from games.lab.selectors import lab_observed  # the database: only when asked
        from games.lab.services.calibration import calibration_game_play, calibration_members
        from games.lab.simulation.calibration import OBSERVED_SEED_OFFSET

        row = calibrate(setup, games=games, observed=0, seed=seed, workers=workers)
        host, players = calibration_members(setup.seats)
        for i in range(observed):
            calibration_game_play(
                setup=setup, seed=seed + OBSERVED_SEED_OFFSET, index=i, host=host, players=players
            )
        seen = lab_observed(setup)
        share = seen.wins / seen.games if seen.games else 0.0
        rate = TeamRate(VILLAGE, seen.wins, share, seen.low, seen.high)
        return replace(row, observed=rate, games=seen.games)
