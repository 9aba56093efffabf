"""The setup lab's pages: /lab/ to pick a suggested setup or describe one (the new-game
form's setup fields, which that form can also post here), and /lab/<address>/ for one
estimate, which shows its progress until the answer is in. Anyone may read a suggested
setup's estimate; a member's own setup's is at an address only they are given and only
they may read (services/records.py lab_address). Starting an estimate not yet kept takes a
member (each costs the worker minutes of CPU), within the lab's limits: a refusal is shown
on the page, what was typed kept."""

import math

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games.deal import errors_only
from games.engine import GameRuleError
from games.views.create import _problems as worded_deal_problems  # the new-game form's words
from games.views.feedback import sentence

from .forms import LabSetupForm, setup_initial
from .jobs import canonical
from .kept import kept_for, new_game_keep
from .selectors import lab_result, lab_suggested
from .services import lab_address, lab_cancel, lab_cost, lab_start
from .simulation.setups import Setup, find_suggested, suggested

# The form's first look: the 12-player Witchhunt setup, ready to change.
DEFAULT = suggested("witchhunt", 12)


def _setup_posted(request, form):
    """The setup the POST asks for: a suggested one by its slug, else the form's, checked
    as the new-game form checks it (its warnings do not stop an estimate)."""
    slug = request.POST.get("suggested")
    if slug:
        setup = find_suggested(slug)
        if setup is None:
            raise Http404("no such suggested setup")
        return setup
    if not form.is_valid():
        return None
    data = form.cleaned_data
    errors = errors_only(worded_deal_problems(data))
    for problem in errors:
        form.add_error(None, problem)
    if errors:
        return None
    setup = Setup.from_game_fields(
        data["ruleset"], data["seats_count"], data["deal"], data["options"]
    )
    return canonical(setup)


def _refusal(error: GameRuleError) -> dict:
    """A refused start as the page shows it: the reason, and the member's job at work when
    that is the reason."""
    return {"text": sentence(error), "running": getattr(error, "running", None)}


@never_cache
@require_http_methods(["GET", "POST"])
def lab(request):
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.path)
    form = LabSetupForm(request.POST or None, initial=setup_initial(DEFAULT))
    refusal = None
    if request.method == "POST":
        setup = _setup_posted(request, form)
        if setup is not None:
            try:
                lab_start(setup=setup, user=request.user)
            except GameRuleError as e:
                refusal = _refusal(e)
                refusal["where"] = "suggested" if request.POST.get("suggested") else "own"
                if refusal["where"] == "suggested":  # nothing was typed: the form as it was
                    form = LabSetupForm(initial=setup_initial(DEFAULT))
            else:
                key = lab_address(setup=setup, user=request.user)
                if request.POST.get("from_new_game"):  # the way back keeps what was typed
                    new_game_keep(request, key)
                return redirect("lab_result", key=key)
    context = {
        "form": form,
        "suggested": lab_suggested(),
        "refusal": refusal,
        "limits": _limits(),
    }
    return render(request, "lab/lab.html", context)


def _limits() -> dict:
    """The window's numbers, as the page states them (docs/lab.md has them all)."""
    return {
        "window_minutes": math.ceil(settings.LAB_WINDOW_SECONDS / 60),
        "budget": settings.LAB_UNITS_PER_WINDOW,
        "per_unit": settings.LAB_SEATS_PER_UNIT,
        "cost_48": lab_cost(suggested("witchhunt", 48)),
    }


def _get_result_for_user(request, key):
    """The estimate at `key` if this visitor may see it: missing and not theirs are the
    same 404."""
    result = lab_result(key, viewer=request.user)
    if result is None:
        raise Http404("no estimate is kept here")
    return result


@never_cache
@require_http_methods(["GET", "POST"])
def lab_result_page(request, key):
    """An estimate, or its progress; a POST starts a failed or abandoned one again."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.path)
    result = _get_result_for_user(request, key)
    refusal = None
    if request.method == "POST":
        try:
            lab_start(setup=result.setup, user=request.user)
        except GameRuleError as e:
            refusal = _refusal(e)
        else:
            return redirect("lab_result", key=lab_address(setup=result.setup, user=request.user))
    context = {
        "result": result,
        "can_cancel": _may_cancel(request.user, result),
        "poll_seconds": settings.LAB_POLL_SECONDS,
        "refusal": refusal,
        "kept": kept_for(request, key),  # the host came from the new-game form
    }
    return render(request, "lab/result.html", context)


def _may_cancel(user, result) -> bool:
    """The Cancel button: staff on any job at work; a member on their own setup's (an address
    other than the setup's key is a member's own, shown to that member alone)."""
    if not (result.working and user.is_authenticated):
        return False
    return user.is_staff or result.address != result.setup.key()


@never_cache
@require_http_methods(["POST"])
def lab_cancel_page(request, key):
    """Cancel the job at work here (its owner, or staff), then show its page: cancelled, or
    already ended if it ended first."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("lab_result", kwargs={"key": key}))
    result = _get_result_for_user(request, key)
    if result.working and not _may_cancel(request.user, result):
        raise PermissionDenied("only staff may stop an estimate of a suggested setup")
    lab_cancel(address=key, user=request.user)
    return redirect("lab_result", key=key)
