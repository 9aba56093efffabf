from django.apps import AppConfig


class FairDealConfig(AppConfig):
    name = "games.fair_deal"
    label = "fair_deal"

    def ready(self):
        from . import panels, receivers

        receivers.connect()
        panels.register()
