"""`python manage.py backup PATH`: the PostgreSQL database in pg_dump's custom format
(witchhunt/backup.py). Redis needs no backup: it is a cache and the broker."""

from django.core.management.base import BaseCommand, CommandError

from witchhunt.backup import BackupError, backup


class Command(BaseCommand):
    help = "Back up the database to PATH (pg_dump's custom format); safe while games run."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to write; it must not exist yet")
        parser.add_argument("--database", default="default", help="the DATABASES alias")

    def handle(self, *args, path, database, **options):
        try:
            written = backup(path, alias=database)
        except BackupError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"backed up to {written} ({written.stat().st_size} bytes)")
