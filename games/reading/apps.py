from django.apps import AppConfig


class ReadingConfig(AppConfig):
    name = "games.reading"
    label = "reading"

    def ready(self):
        from . import receivers

        receivers.connect()

        from . import panels

        panels.register()
