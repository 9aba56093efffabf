from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "games.webhooks"
    label = "webhooks"

    def ready(self):
        from . import checks, panels, receivers, story, tasks  # noqa: F401 (checks registers)
        from .services.deliveries import deliveries_write, quiet_connect

        story.listen(deliveries_write)
        quiet_connect()
        receivers.connect()  # what is announced, on which of the core's events
        tasks.connect_jobs()
        panels.register_all()
