from django.apps import AppConfig


class ViewerConfig(AppConfig):
    name = "games.viewer"
    label = "viewer"

    def ready(self):
        from . import panels

        panels.register()
