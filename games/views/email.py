"""One-click unsubscribe from game emails (RFC 8058).

The link in every game email holds a signed token naming the user and the preference;
it is the only credential, so the page works signed out and from any mail client. GET
only shows what a POST would do (mail scanners follow links, so a GET must change
nothing); POST turns the preference off. Mail clients POST `List-Unsubscribe=One-Click`
without cookies or a CSRF token, hence csrf_exempt: the signed token stands in for it.
"""

from django.shortcuts import render
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.mail import PREFERENCES, unsubscribe_read
from games.services import email_preference_off


@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    found = unsubscribe_read(token)
    if found is None:
        return render(request, "email/unsubscribe_invalid.html", status=400)
    user, preference = found
    context = {"player": user, "label": PREFERENCES[preference][1], "token": token}
    if request.method == "POST":
        email_preference_off(user=user, preference=preference)
        return render(request, "email/unsubscribe_done.html", context)
    return render(request, "email/unsubscribe_confirm.html", context)


urlpatterns = [
    path("email/unsubscribe/<str:token>/", unsubscribe, name="email_unsubscribe"),
]
