"""The spectators' addresses (included by witchhunt/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<id:game_id>/spectate/", views.spectator_page_view, name="spectator_page"),
    path(
        "games/<id:game_id>/spectate/rooms/<slug:ref>/",
        views.spectator_room_view,
        name="spectator_room",
    ),
    path(
        "games/<id:game_id>/spectate/thread/",
        views.spectators_thread_view,
        name="spectators_thread",
    ),
    path("games/<id:game_id>/spectate/start/", views.spectate_start_view, name="spectate_start"),
    path("games/<id:game_id>/spectate/stop/", views.spectate_stop_view, name="spectate_stop"),
    path("games/<id:game_id>/spectate/settings/", views.settings_view, name="spectators_settings"),
]
