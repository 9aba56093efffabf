from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "games.archive"
    label = "archive"

    def ready(self):
        pass  # nothing to connect yet
