from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "games.community"
    label = "community"

    def ready(self):
        from . import panels, receivers, tasks

        receivers.connect()
        tasks.connect_jobs()
        panels.register_all()
