from django.apps import AppConfig


class LabConfig(AppConfig):
    name = "games.lab"
    label = "lab"

    def ready(self):
        from games import queue

        from . import panels, receivers, tasks

        receivers.connect()
        panels.register()
        queue.connect_job("lab_estimate", tasks.lab_estimate.delay)
