from django.apps import AppConfig


class CalendarConfig(AppConfig):
    name = "games.calendar"
    # "calendar" alone would read as the standard library's module in logs and settings.
    label = "game_calendar"

    def ready(self):
        from . import panels, receivers

        receivers.connect()
        panels.register()
