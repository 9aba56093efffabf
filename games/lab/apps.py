from django.apps import AppConfig


class LabConfig(AppConfig):
    name = "games.lab"
    label = "lab"

    def ready(self):
        pass  # nothing to connect yet
