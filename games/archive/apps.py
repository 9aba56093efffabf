from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "games.archive"
    label = "archive"

    def ready(self):
        pass  # it listens to no event and offers no panel: its pages read finished games
