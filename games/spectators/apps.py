from django.apps import AppConfig


class SpectatorsConfig(AppConfig):
    name = "games.spectators"
    label = "spectators"

    def ready(self):
        from . import panels, receivers

        receivers.connect()
        panels.register()
