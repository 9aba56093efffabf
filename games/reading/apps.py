from django.apps import AppConfig


class ReadingConfig(AppConfig):
    name = "games.reading"
    label = "reading"

    def ready(self):
        from . import panels, receivers, tasks

        receivers.connect()
        panels.register()
        tasks.connect_jobs()
