"""A member's notifications (games/services/inbox.py): the list, newest first;
opening one (a POST: it is marked read, then the browser goes to its post) and marking
them all read. Another member's notification is the same 404 as none."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.selectors.notifications import notification_list, notification_url
from games.services.inbox import notification_open, notifications_read_all


@never_cache
@login_required
def notifications(request):
    return render(
        request, "games/notifications.html", {"notifications": notification_list(request.user)}
    )


@never_cache
@require_POST
@login_required
def notification_go(request, ref):
    found = notification_open(user=request.user, ref=ref)
    if found is None:
        raise Http404("no such notification")
    post = found.post
    return redirect(
        notification_url(
            found.game,
            found.kind,
            post.thread if post else "public",
            post.number if post else None,
            found.key,
        )
    )


@require_POST
@login_required
def notifications_read(request):
    count = notifications_read_all(user=request.user)
    messages.success(
        request,
        gettext("Every notification is marked read.") if count else gettext("Nothing was unread."),
    )
    return redirect("notifications")


urlpatterns = [
    path("notifications/", notifications, name="notifications"),
    path("notifications/read/", notifications_read, name="notifications_read"),
    path("notifications/<slug:ref>/", notification_go, name="notification_go"),
]
