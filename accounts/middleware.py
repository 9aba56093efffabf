from django.utils import timezone


class UserTimezoneMiddleware:
    """Renders every time in the signed-in member's own zone; visitors see UTC."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        zone = user.zoneinfo if user.is_authenticated else None
        # override() restores the previous zone afterwards, so nothing leaks to the next
        # request served by this thread.
        with timezone.override(zone):
            return self.get_response(request)
