"""`make pseudo-locale`: the pseudo catalog (witchhunt/pseudo.py) in var/pseudo-locale/,
read by `witchhunt.settings.pseudo` (docs/translation.md)."""

from django.core.management.base import BaseCommand

from witchhunt.pseudo import write_catalog


class Command(BaseCommand):
    help = "Write the pseudo-locale's catalog (every word accented and bracketed)."

    def add_arguments(self, parser):
        parser.add_argument("--out", help="the folder to write (default var/pseudo-locale)")

    def handle(self, *args, out=None, **options):
        folder = write_catalog(out)
        self.stdout.write(
            f"Pseudo catalog written to {folder}: run with "
            "DJANGO_SETTINGS_MODULE=witchhunt.settings.pseudo to see it."
        )
