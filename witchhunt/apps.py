from django.apps import AppConfig


class WitchhuntConfig(AppConfig):
    """The project itself: what every app's routes rely on, set up before any is imported."""

    name = "witchhunt"
    verbose_name = "Witchhunt"

    def ready(self) -> None:
        from . import checks, converters  # noqa: F401 - checks registers on import

        converters.register()
