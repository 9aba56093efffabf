"""`python manage.py lab_fill`: the setup lab's estimates of every suggested setup, so the
new-game form shows their numbers without anyone visiting the lab first (that form only
ever reads the cache). By default the jobs are queued for the `lab` worker; `--now` plays
them here, one after the other, with the lab's settings (LAB_GAMES and the rest). A setup
already estimated, or being estimated, is left alone.
"""

from django.conf import settings
from django.core.management.base import BaseCommand

from games.lab.services import lab_run, lab_start
from games.lab.simulation.setups import SUGGESTED, find_suggested


class Command(BaseCommand):
    help = "Queue (or, with --now, run) the setup lab's estimates of the suggested setups."

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="only these (e.g. witchhunt-12)")
        parser.add_argument("--now", action="store_true", help="play them in this process")

    def handle(self, *args, slugs, now, **options):
        setups = [find_suggested(s) for s in slugs] or [
            s for group in SUGGESTED.values() for s in group
        ]
        if None in setups:
            unknown = [slug for slug, s in zip(slugs, setups, strict=True) if s is None]
            self.stderr.write(f"lab_fill: no suggested setup {', '.join(unknown)}")
            setups = [s for s in setups if s is not None]
        for setup in setups:
            if not lab_start(setup=setup, queued=not now):
                self.stdout.write(f"{setup.slug()}: estimated already, or on its way")
            elif now:
                state = lab_run(address=setup.key(), seed=settings.LAB_SEED)
                self.stdout.write(f"{setup.slug()}: {state}")
            else:
                self.stdout.write(f"{setup.slug()}: queued")
