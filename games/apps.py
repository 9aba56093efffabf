from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from . import tasks
        from .services import game_emails

        tasks.connect_receivers()
        game_emails.connect()  # first: a new player's role email before any notice
