"""`make pseudo-locale`: the pseudo catalog (witchhunt/pseudo.py) in var/pseudo-locale/,
read by `witchhunt.settings.pseudo` (docs/translation.md). With --marked, the end-to-end
run's catalog instead: English, every word wrapped in invisible marks (`make test-pseudo`)."""

from django.core.management.base import BaseCommand

from witchhunt.pseudo import marked, write_catalog


class Command(BaseCommand):
    help = "Write the pseudo-locale's catalog (every word accented and bracketed)."

    def add_arguments(self, parser):
        parser.add_argument("--out", help="the folder to write (default var/pseudo-locale)")
        parser.add_argument(
            "--marked",
            action="store_true",
            help="English with every word wrapped in invisible marks, for the end-to-end run",
        )

    def handle(self, *args, out=None, **options):
        if options["marked"]:
            folder = write_catalog(out, language="en", word=marked)
            self.stdout.write(f"Marked English catalog written to {folder}.")
            return
        folder = write_catalog(out)
        self.stdout.write(
            f"Pseudo catalog written to {folder}: run with "
            "DJANGO_SETTINGS_MODULE=witchhunt.settings.pseudo to see it."
        )
