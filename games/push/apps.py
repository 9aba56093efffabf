from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "games.push"
    label = "push"

    def ready(self):
        from . import panels, receivers, tasks

        receivers.connect()
        tasks.connect_jobs()
        panels.register_all()
