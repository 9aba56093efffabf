"""The fair deal's pages (included by witchhunt/urls.py): a game's sealed deal, and the
check anyone can paste into."""

from django.urls import path

from .views import fair_deal_check, game_fair_deal

urlpatterns = [
    path("games/<id:game_id>/fair-deal/", game_fair_deal, name="game_fair_deal"),
    path("fair-deal/", fair_deal_check, name="fair_deal_check"),
]
