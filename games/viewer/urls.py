"""The viewer's pages (included by witchhunt/urls.py)."""

from django.urls import path

from .views import viewer_open, viewer_step

urlpatterns = [
    path("games/<id:game_id>/viewer/", viewer_open, name="viewer_open"),
    path("games/<id:game_id>/viewer/<slug:view>/<id:step>/", viewer_step, name="viewer_step"),
]
