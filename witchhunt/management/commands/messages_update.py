"""`make messages`: the catalogs brought up to date with the code (every language but
English), then compiled. Needs GNU gettext (docs/translation.md)."""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from witchhunt import catalogs


class Command(BaseCommand):
    help = "Update locale/<code>/LC_MESSAGES/*.po from the code and compile them to .mo."

    def handle(self, *args, **options):
        for code, _name in settings.LANGUAGES:
            if code != "en":
                catalogs.makemessages(code)
        call_command("compilemessages", ignore_patterns=[".venv", "staticfiles", "var"])
        self.stdout.write("Catalogs updated and compiled: translate the new entries.")
