"""`make messages-check` (CI): every language's catalog holds exactly the words the code
marks, and its compiled .mo matches it; with --complete, every entry is translated and
none is fuzzy. Exits non-zero and lists what is wrong otherwise (docs/translation.md)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from witchhunt import catalogs


class Command(BaseCommand):
    help = "Check the translation catalogs against the code (and, with --complete, for gaps)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--complete", action="store_true", help="also fail on an untranslated or fuzzy entry"
        )

    def handle(self, *args, complete=False, **options):
        report = catalogs.Report()
        for code, _name in settings.LANGUAGES:
            if code == "en":
                continue
            catalogs.check_up_to_date(code, report)
            if complete:
                catalogs.check_complete(code, report)
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(report.problems)} problem(s) in the catalogs")
        self.stdout.write("The catalogs are up to date and compiled.")
