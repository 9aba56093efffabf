"""A member's absences (issue 16): the page that lists their absences to come, declares
one (days in their own zone) and deletes one. Their own only: nobody else's absence is
ever listed here or deletable from here."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.engine import GameRuleError
from games.forms import AbsenceForm
from games.views.feedback import refused, sentence

from ..selectors.absences import absences_of
from ..services import absences as services


@never_cache
@login_required
def absences(request):
    form = AbsenceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.absence_declare(
                user=request.user,
                first_day=data["first_day"],
                last_day=data["last_day"],
                note=data["note"],
            )
        except GameRuleError as e:
            form.add_error(None, sentence(e))
        else:
            messages.success(
                request, gettext("Your absence is noted: your games’ moderators see it.")
            )
            return redirect("absences")
    return render(
        request,
        "community/absences.html",
        {"form": form, "absences": absences_of(request.user, timezone.now())},
    )


@require_POST
@login_required
def absence_delete(request, absence_id):
    try:
        services.absence_delete(user=request.user, pk=absence_id)
    except GameRuleError as e:
        refused(request, e)
    else:
        messages.success(request, gettext("The absence is deleted."))
    return redirect("absences")


urlpatterns = [
    path("absences/", absences, name="absences"),
    path("absences/<id:absence_id>/delete/", absence_delete, name="absence_delete"),
]
