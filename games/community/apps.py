from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "games.community"
    label = "community"

    def ready(self):
        from . import receivers

        receivers.connect()
