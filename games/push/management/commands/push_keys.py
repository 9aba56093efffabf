"""`manage.py push_keys`: a new VAPID key pair for web push, as the environment takes it."""

from django.core.management.base import BaseCommand

from games.push.keys import key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push (WEBPUSH_VAPID_PRIVATE_KEY and PUBLIC_KEY)."

    def handle(self, *args, **options):
        private, public = key_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}")
