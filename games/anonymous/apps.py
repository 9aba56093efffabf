from django.apps import AppConfig


class AnonymousConfig(AppConfig):
    name = "games.anonymous"
    label = "anonymous"

    def ready(self):
        from . import panels, receivers

        receivers.connect()
        panels.register_all()
