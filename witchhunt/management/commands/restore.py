"""`python manage.py restore PATH`: a backup made by `manage.py backup` into the database
DATABASE_URL names, which should be new and empty (witchhunt/backup.py)."""

from django.core.management.base import BaseCommand, CommandError

from witchhunt.backup import BackupError, restore


class Command(BaseCommand):
    help = "Restore a backup into an empty database (all of it, or nothing on an error)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="a file written by `manage.py backup`")
        parser.add_argument("--database", default="default", help="the DATABASES alias")
        parser.add_argument(
            "--force",
            action="store_true",
            help="restore into a database that has tables, replacing what the backup holds",
        )

    def handle(self, *args, path, database, force, **options):
        try:
            restore(path, alias=database, force=force)
        except BackupError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(
            f"restored {path}; next: `manage.py migrate` (a newer release's migrations), "
            "`manage.py replay_check`, then start the web, the workers and beat"
        )
