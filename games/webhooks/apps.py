import importlib.util

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "games.webhooks"
    label = "webhooks"

    def ready(self):
        from . import checks, panels, story, tasks  # noqa: F401 (checks registers itself)
        from .services.deliveries import deliveries_write

        story.listen(deliveries_write)
        # What is announced, and on which of the core's events (receivers.py), when present.
        if importlib.util.find_spec("games.webhooks.receivers") is not None:
            from . import receivers

            receivers.connect()
        tasks.connect_jobs()
        panels.register_all()
