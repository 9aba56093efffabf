"""The calendar feeds, and the profile's two buttons for the member's own address.

A feed is read by a calendar app, with no session: the private one is found by the token in
its address (an unknown or revoked token is the same 404 as any missing page), the public
one by its game, through the game pages' own access helper. Both answer text/calendar with
an ETag of their bytes (a 304 to an app that has them), which moves with nothing hidden
since the bytes do not."""

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from accounts.language import in_language_of
from games.views.access import get_game_for_user

from . import narration
from .ical import feed_bytes
from .selectors import feed_for_token, game_deadlines, member_deadlines
from .services import feed_fetched, feed_remove, feed_renew

PUBLIC_FEED_SECONDS = 300


def _ics(request, body: bytes, filename: str) -> HttpResponse:
    # Conditional on the ETag alone: no Last-Modified, since a feed can change to an older
    # one (a game leaves the list, one whose last move is older joins it), which an app's
    # If-Modified-Since would take for "unchanged".
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["ETag"] = etag
    return response


@never_cache
@require_safe
def member_feed(request, token):
    """A member's private feed: the deadlines of their games, in their language. Never
    stored by a cache on the way (never_cache): the address is the only key to it."""
    feed = feed_for_token(token)
    if feed is None:
        raise Http404("no such calendar")
    feed_fetched(feed=feed)
    deadlines = member_deadlines(feed.user)
    with in_language_of(feed.user):
        body = feed_bytes(deadlines, narration.member_calendar_name())
    response = _ics(request, body, "witchhunt-deadlines.ics")
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_safe
def game_feed(request, game_id):
    """A game's public feed: its deadline as the game page shows it to everyone."""
    game = get_game_for_user(request, game_id)
    deadlines = game_deadlines(game)
    body = feed_bytes(deadlines, narration.game_calendar_name(game.title))
    response = _ics(request, body, f"game-{game.pk}-deadlines.ics")
    patch_cache_control(response, public=True, max_age=PUBLIC_FEED_SECONDS)
    return response


@login_required
@require_POST
def feed_renew_view(request):
    had = hasattr(request.user, "calendar_feed")
    feed_renew(user=request.user)
    if had:
        said = _("Your calendar has a new address: the old one no longer works.")
    else:
        said = _("Your calendar address is ready: add it to your calendar app.")
    messages.success(request, said)
    return redirect(reverse("profile") + "#calendar")


@login_required
@require_POST
def feed_remove_view(request):
    if feed_remove(user=request.user):
        messages.success(request, _("Your calendar address is turned off."))
    return redirect(reverse("profile") + "#calendar")
