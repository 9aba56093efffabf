"""`python manage.py balance SETUP`: each team's win chance for a setup, by simulation.

SETUP is a suggested setup (`witchhunt-12`, "Werewolf 24 (suggested)") or the path of a
JSON setup: {"ruleset", "seats", "deal" (Game.deal's shape), "options", "name"?}. Prints
the win rates with 95% intervals for bots of one skill (`--skill`, typical unless asked;
games/lab/simulation/skills.py) and the median length in days, with the band of the
Village's share from careless to sharp play beside them (`--no-band` to skip it: it plays
the games twice more), then the same setup at other sizes (`--sizes`;
games/lab/simulation/scaling.py says how a setup is scaled). `--suggested` prints the
table of every suggested setup that docs/lab.md holds, with the band as its last column;
`--store` keeps the estimate (and its band) as the lab page's answer. The games are split
over `--workers` processes in seeded chunks: the same seed gives the same numbers with
any number of workers. No database is touched.
"""

import argparse
import json
import os
import time

from django.core.management.base import BaseCommand, CommandError

from games.lab.simulation import skills
from games.lab.simulation.estimate import Band, by_size, simulate
from games.lab.simulation.report import estimate_lines, size_table
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import SIZES, SUGGESTED, Setup, find_suggested, problems


class Command(BaseCommand):
    help = "Estimate each team's win chance for a setup by simulating it with the lab's bots."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument(
            "setup", nargs="?", help="a suggested setup (witchhunt-12) or a JSON setup's path"
        )
        parser.add_argument("--games", type=int, default=2000, help="games per estimate")
        parser.add_argument("--seed", type=int, default=1, help="the estimate's seed")
        parser.add_argument(
            "--sizes",
            default=None,
            help="comma-separated seat counts for the by-size table (default: the setup's "
            "size and four either side; 'none' for no table)",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=os.cpu_count() or 1,
            help="processes to play the games on (default: every core)",
        )
        parser.add_argument(
            "--skill",
            choices=skills.ALL,
            default=skills.DEFAULT,
            help="how well the bots play (random: every vote and kill at random; default "
            f"{skills.DEFAULT})",
        )
        parser.add_argument(
            "--band",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="the Village's share from careless to sharp play beside the estimate "
            "(default; --no-band skips its games)",
        )
        parser.add_argument(
            "--store",
            action="store_true",
            help="keep the estimate as the lab page's answer for the setup (the site's cache; "
            "games/lab/services/store.py lab_store)",
        )
        parser.add_argument(
            "--suggested",
            action="store_true",
            help="print the table of every suggested setup (docs/lab.md) instead",
        )

    def handle(
        self, *args, setup, games, seed, sizes, workers, suggested, store, skill, band, **options
    ):
        if games < 1 or workers < 1:
            raise CommandError("--games and --workers must be 1 or more")
        if suggested:
            return self.suggested_table(games, seed, workers, skill, band)
        if not setup:
            raise CommandError("name a setup (e.g. witchhunt-12) or give --suggested")
        chosen = load_setup(setup)
        wrong = problems(chosen)
        if wrong:
            raise CommandError(f"{chosen.label()} cannot be played: " + " ".join(wrong))
        start = time.perf_counter()
        est = simulate(chosen, games=games, seed=seed, workers=workers, skill=skill)
        took = time.perf_counter() - start
        ends = skill_band(chosen, games, seed, workers) if band else None
        self.stdout.write(
            f"{chosen.label()}: {chosen.seats} seats, key {est.setup_key}; {skill} bots"
        )
        for line in estimate_lines(chosen, est, ends and Band.of(est, *ends)):
            self.stdout.write(line)
        self.stdout.write(
            f"{games / took:,.0f} games/s ({took:.2f} s on {workers} process"
            f"{'es' if workers > 1 else ''})"
        )
        counts = parse_sizes(sizes, chosen.seats)
        rows = self.rows(chosen, counts, games, seed, workers, est, skill) if counts else []
        if rows:
            self.stdout.write("")
            self.stdout.write(f"By size ({games:,} games each):")
            for line in size_table(rows, chosen.ruleset):
                self.stdout.write(line)
        if store:
            from games.lab.services import lab_store  # the site's cache: only when asked

            if skill != skills.DEFAULT:
                raise CommandError(f"--store keeps {skills.DEFAULT} play's estimate only")
            kept = lab_store(setup=chosen, estimate=est, sizes=rows, band=ends)
            self.stdout.write(
                "Stored as the lab's answer."
                if kept
                else "Not stored: the lab is at work on it, or has an answer of as many games."
            )

    def rows(self, setup, counts, games, seed, workers, own, skill):
        """by_size, leaving out (with a note) the sizes the setup cannot be scaled to; the
        setup's own size is the estimate already made."""
        rows = []
        for n in counts:
            if n == setup.seats:
                rows.append((n, own))
                continue
            try:
                resized = scaled(setup, n)
            except ValueError as e:
                self.stderr.write(f"balance: {n} seats left out: {e}")
                continue
            wrong = problems(resized)
            if wrong:
                self.stderr.write(f"balance: {n} seats left out: {' '.join(wrong)}")
                continue
            rows += by_size(setup, [n], games=games, seed=seed, workers=workers, skill=skill)
        return rows

    def suggested_table(self, games, seed, workers, skill, band):
        for ruleset, setups in SUGGESTED.items():
            rows = [
                (s.seats, simulate(s, games=games, seed=seed, workers=workers, skill=skill))
                for s in setups
            ]
            bands = None
            if band:
                bands = [
                    Band.of(est, *skill_band(s, games, seed, workers))
                    for s, (_, est) in zip(setups, rows, strict=True)
                ]
            name = setups[0].label().split()[0]
            self.stdout.write(
                f"{name}, suggested setups ({games:,} games each, seed {seed}, {skill} bots):"
            )
            for line in size_table(rows, ruleset, bands):
                self.stdout.write(line)
            self.stdout.write("")


def skill_band(setup, games, seed, workers):
    """The (careless, sharp) estimates of `setup`: the same games, dealt alike, played by
    bots of the two ends of skill."""
    return tuple(
        simulate(setup, games=games, seed=seed, workers=workers, skill=s)
        for s in ("careless", "sharp")
    )


def load_setup(ref: str) -> Setup:
    found = find_suggested(ref)
    if found is not None:
        return found
    if not os.path.exists(ref):
        names = ", ".join(s.slug() for setups in SUGGESTED.values() for s in setups)
        raise CommandError(f"no suggested setup or file {ref!r} (suggested: {names})")
    try:
        with open(ref, encoding="utf-8") as f:
            data = json.load(f)
        return Setup.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CommandError(f"{ref}: not a setup: {e}") from None


def parse_sizes(text, seats):
    if text is None:
        return [n for n in (seats - 4, seats, seats + 4) if n >= 5]
    if text.strip().lower() in ("", "none"):
        return []
    try:
        counts = [int(n) for n in text.replace(" ", "").split(",") if n]
    except ValueError:
        raise CommandError("--sizes: seat counts separated by commas, e.g. 8,12,16") from None
    if any(n < 2 or n > max(SIZES) * 2 for n in counts):
        raise CommandError(f"--sizes: each size between 2 and {max(SIZES) * 2}")
    return counts
