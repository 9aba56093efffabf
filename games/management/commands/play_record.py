"""`python manage.py play_record PATH|-`: replay a game record through the rules engine.

Prints the result JSON (../shared/conformance/FORMAT.md) and exits 0; a record that
cannot be read exits 2 with one line on standard error. No database is touched.
"""

import sys

from django.core.management.base import BaseCommand

from games.engine import RecordError, records


class Command(BaseCommand):
    help = "Replay a game record (a file, or - for standard input) and print its result."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("path", help="the record's path, or - for standard input")

    def handle(self, *args, path, **options):
        try:
            text = sys.stdin.read() if path == "-" else _read(path)
            result, warnings = records.play(text)
        except RecordError as e:
            self.stderr.write(f"play_record: {path}: {e}")
            sys.exit(2)
        for w in warnings:
            self.stderr.write(f"play_record: warning: {w}")
        self.stdout.write(records.dumps(result))


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise RecordError(f"cannot read the record: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None
