import zoneinfo

from django.middleware.csrf import get_token
from django.utils import timezone

from .zones import UTC, canonical_zone

# Where a visitor's browser zone is kept (set by accounts.views.browser_time_zone).
BROWSER_ZONE_KEY = "browser_time_zone"


def browser_zone(request) -> str | None:
    """The zone the visitor's browser reported this session, if any."""
    name = request.session.get(BROWSER_ZONE_KEY)
    return canonical_zone(name) if isinstance(name, str) else None


class UserTimezoneMiddleware:
    """Renders every time in the signed-in member's own zone; a visitor's in the zone their
    browser reported (static/js/timezone.js sends it once a session), else in UTC.

    Sets on the request what the page shell says and needs: `time_zone_name`, and
    `time_zone_unknown` while a visitor's browser has not reported its zone yet (the page
    then loads the script that reports it)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if user.is_authenticated:
            zone = user.zoneinfo  # the member's choice wins over any browser
            request.time_zone_unknown = False
        else:
            name = browser_zone(request)
            zone = zoneinfo.ZoneInfo(name or UTC)
            request.time_zone_unknown = name is None
            if name is None:
                # The script posts the zone with the CSRF cookie's token: make sure the
                # cookie is set (the page itself has no token to vary by).
                get_token(request)
        request.time_zone_name = zone.key
        # override() restores the previous zone afterwards, so nothing leaks to the next
        # request served by this thread.
        with timezone.override(zone):
            return self.get_response(request)
