from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from kombu.exceptions import OperationalError

        from . import queue, tasks
        from .services import game_emails, held_jobs

        tasks.connect_receivers()
        # A job the broker refuses (Redis down) waits in the database, not lost.
        queue.hold_jobs(held_jobs.job_hold, errors=(OperationalError, OSError))
        game_emails.connect()  # first: a new player's role email before any notice
