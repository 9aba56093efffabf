from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "games.reports"
    label = "reports"

    def ready(self):
        from . import narration, panels, receivers  # noqa: F401 - narration registers its words

        receivers.connect()
        panels.register_all()
