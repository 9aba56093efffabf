from django.apps import AppConfig


class LeavingConfig(AppConfig):
    name = "games.leaving"
    label = "leaving"
