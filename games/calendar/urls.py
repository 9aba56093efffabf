"""The calendar feeds (included by witchhunt/urls.py): a member's private feed, a game's
public one, and the profile's buttons for the member's address."""

from django.urls import path

from .views import feed_remove_view, feed_renew_view, game_feed, member_feed

urlpatterns = [
    path("calendar/<slug:token>.ics", member_feed, name="calendar_member_feed"),
    path("games/<id:game_id>/calendar.ics", game_feed, name="calendar_game_feed"),
    path("calendar/new/", feed_renew_view, name="calendar_feed_renew"),
    path("calendar/off/", feed_remove_view, name="calendar_feed_remove"),
]
