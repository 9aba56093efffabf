"""The archive's pages (included by witchhunt/urls.py); the core's pages link to them by
name."""

from django.urls import path

from .views import archive, player_profile, record, reveal

urlpatterns = [
    path("games/<id:game_id>/reveal/", reveal, name="game_reveal"),
    path("games/<id:game_id>/record.json", record, name="game_record"),
    # <slug:key>: a player key is letters, digits and underscores (accounts.validators).
    path("players/<slug:key>/", player_profile, name="player_profile"),
    path("archive/", archive, name="archive"),
]
