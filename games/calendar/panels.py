"""What the calendar shows on the core's pages: on the profile, the member's private
address (copy it, open it in a calendar app, renew it, turn it off); on a running game's
page, the link to the game's public feed, and its <link rel="alternate"> in the head (the
same for every viewer: no query, no state)."""

from django.urls import reverse

from games import panels
from games.models import CalendarFeed, Game

from .tokens import token_for


def profile_feed(*, request, user, **_):
    """The member's address, or {} when they have none yet (the panel offers to make one)."""
    feed = CalendarFeed.objects.filter(user=user).first()
    if feed is None:
        return {}
    address = request.build_absolute_uri(
        reverse("calendar_member_feed", args=[token_for(feed.nonce)])
    )
    return {
        "address": address,
        "webcal": "webcal://" + address.split("://", 1)[1],
        "created_at": feed.created_at,
        "fetched_at": feed.fetched_at,
    }


def game_feed_link(*, game, **_):
    if game.status != Game.Status.RUNNING:
        return None
    return reverse("calendar_game_feed", args=[game.pk])


def register() -> None:
    panels.register(panels.PROFILE, "preferences", "calendar/_profile.html", profile_feed)
    panels.register(panels.GAME, "jump_links_end", "calendar/_game_link.html", game_feed_link)
    panels.register(panels.GAME, "head", "calendar/_game_head.html", game_feed_link)
