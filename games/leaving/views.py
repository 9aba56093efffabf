"""The member's two pages: their data as a JSON download, and the deletion (a page that
says what will happen, then a POST with the typed words and the password)."""

from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.views.decorators.cache import never_cache

from games.engine import GameRuleError

from .forms import LeaveForm
from .narration import CONFIRMATION
from .selectors import leaving_facts
from .services import member_erase, member_export


@never_cache
@login_required
def member_export_download(request):
    response = JsonResponse(
        member_export(user=request.user), json_dumps_params={"indent": 2, "ensure_ascii": False}
    )
    response["Content-Disposition"] = 'attachment; filename="witchhunt-my-data.json"'
    return response


@never_cache
@login_required
def member_leave(request):
    user = request.user
    form = LeaveForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            member_erase(user=user, by=user)
        except GameRuleError as error:
            form.add_error(None, str(error))
        else:
            logout(request)
            return redirect("member_left")
    facts = leaving_facts(user)
    context = {
        "form": form,
        "facts": facts,
        "titles": _titles(facts),
        "confirmation": CONFIRMATION,
    }
    return render(request, "leaving/leave.html", context, status=400 if form.errors else 200)


def _titles(facts) -> dict:
    """The games' titles each sentence of the page names, joined as one escaped value, so
    each sentence is one message to translate (the running games link to their pages)."""
    running = format_html_join(
        ", ",
        '<a href="{}">{}</a>',
        ((reverse("game_detail", args=[s.game.pk]), s.game.title) for s in facts.running_seats),
    )
    return {
        "running_seats": running,
        "open_seats": format_html_join(", ", "{}", ((s.game.title,) for s in facts.open_seats)),
        "hosted_running": format_html_join(", ", "{}", ((g.title,) for g in facts.hosted_running)),
        "hosted_open": format_html_join(", ", "{}", ((g.title,) for g in facts.hosted_open)),
    }


@never_cache
def member_left(request):
    return render(request, "leaving/left.html")
