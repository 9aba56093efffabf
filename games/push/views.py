"""Web push's pages: the member's choices and browsers (posted from the profile's panel),
the service worker (at the site's root, so its scope is every page) and the manifest."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.engine import GameRuleError

from . import services
from .forms import PushChoicesForm
from .labels import browser_label

# A subscription is a few hundred bytes; anything much bigger is not one.
MAX_BODY = 4096


@never_cache
@login_required
@require_POST
def push_choices(request):
    form = PushChoicesForm(request.POST)
    if form.is_valid():
        services.choices_save(user=request.user, wanted=set(form.cleaned_data["push"]))
        messages.success(request, _("Your notification choices are saved."))
    else:
        messages.error(request, _("Those notification choices are not ones we offer."))
    return redirect("profile")


def _json_body(request) -> dict | None:
    if len(request.body) > MAX_BODY:
        return None
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


@never_cache
@login_required
@require_POST
def push_subscribe(request):
    """A browser's subscription (PushSubscription.toJSON(), static/js/push.js), kept for the
    member signed in. Refused input changes nothing and says why."""
    data = _json_body(request)
    keys = data.get("keys") if data else None
    if not isinstance(keys, dict):
        return JsonResponse(
            {"error": _("Your browser sent no subscription we can use.")}, status=400
        )
    try:
        services.subscription_save(
            user=request.user,
            endpoint=data.get("endpoint"),
            p256dh=keys.get("p256dh"),
            auth=keys.get("auth"),
            label=browser_label(request.headers.get("User-Agent", "")),
        )
    except GameRuleError as e:
        return JsonResponse({"error": str(e)}, status=400)
    return JsonResponse({"ok": True, "message": _("Notifications are on in this browser.")})


@never_cache
@login_required
@require_POST
def push_unsubscribe(request):
    """This browser turned notifications off (static/js/push.js): its row is forgotten."""
    data = _json_body(request)
    endpoint = data.get("endpoint") if data else None
    if not isinstance(endpoint, str):
        return JsonResponse(
            {"error": _("Your browser sent no subscription we can use.")}, status=400
        )
    services.subscription_remove(user=request.user, endpoint=endpoint)
    return JsonResponse({"ok": True, "message": _("Notifications are off in this browser.")})


@never_cache
@login_required
@require_POST
def push_forget(request, pk):
    """One of the member's browsers turned off from the profile (another member's: 404)."""
    if not services.subscription_remove(user=request.user, pk=pk):
        raise Http404
    messages.success(request, _("Notifications are off in that browser."))
    return redirect("profile")


@require_GET
def push_worker(request):
    """The service worker, served from the root so that it may control every page
    (Service-Worker-Allowed: /); checked for updates on each visit (no-cache)."""
    found = finders.find("js/sw.js")
    if not found:  # pragma: no cover - the file ships with the site
        raise Http404
    with open(found, "rb") as f:
        response = HttpResponse(f.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def web_manifest(request):
    """The installable web app's manifest (its words in the page's language)."""
    manifest = {
        "name": "Witchhunt",
        "short_name": "Witchhunt",
        "description": _("Forum games of Witchhunt and Werewolf, played by post."),
        "lang": request.LANGUAGE_CODE,
        "id": "/",
        "start_url": reverse("game_list"),
        "scope": "/",
        "display": "standalone",
        "background_color": settings.WEB_APP_COLOURS["background"],
        "theme_color": settings.WEB_APP_COLOURS["theme"],
        "icons": [
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml",
             "purpose": "any"},
        ],
    }  # fmt: skip
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "public, max-age=3600"
    return response


urlpatterns = [
    path("me/push/choices/", push_choices, name="push_choices"),
    path("me/push/subscribe/", push_subscribe, name="push_subscribe"),
    path("me/push/unsubscribe/", push_unsubscribe, name="push_unsubscribe"),
    path("me/push/<id:pk>/off/", push_forget, name="push_forget"),
    path("sw.js", push_worker, name="push_worker"),
    path("manifest.webmanifest", web_manifest, name="web_manifest"),
]
