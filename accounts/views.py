from allauth.account.views import SignupView as AllauthSignupView
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import panels

from .forms import ProfileForm, SignupConflict
from .language import in_language_of
from .middleware import BROWSER_ZONE_KEY, browser_zone
from .services import user_profile_update
from .zones import canonical_zone

# Longer than any zone's name (the longest is 32 characters).
ZONE_NAME_MAX_LENGTH = 64


class SignupView(AllauthSignupView):
    """allauth's sign-up page, where a sign-up that lost a race for its player name (a
    unique index refused the insert) shows the form again with the error, as if the name
    had been taken before (accounts.forms.SignupForm.try_save). Its time zone starts as the
    one the visitor's browser reported."""

    def get_initial(self):
        initial = super().get_initial()
        zone = browser_zone(self.request)
        if zone:
            initial["time_zone"] = zone
        return initial

    def form_valid(self, form):
        try:
            return super().form_valid(form)
        except SignupConflict:
            return self.form_invalid(form)


signup = SignupView.as_view()


@never_cache
@login_required
def profile(request):
    user = request.user
    if request.method == "POST":
        form = ProfileForm(request.POST, current_zone=user.time_zone)
        if form.is_valid():
            user_profile_update(user=user, **form.cleaned_data)
            # Said in the language the next page is shown in: the one just chosen, if any.
            with in_language_of(user, translation.get_language()):
                messages.success(request, gettext("Your profile is saved."))
            return redirect("profile")
    else:
        form = ProfileForm(
            current_zone=user.time_zone,
            initial={
                # An old name (US/Eastern) shows as the city the list has.
                "time_zone": canonical_zone(user.time_zone) or user.time_zone,
                "email_deadline_reminders": user.email_deadline_reminders,
                "email_phase_changes": user.email_phase_changes,
                "email_mentions": user.email_mentions,
                "email_results": user.email_results,
                "wagon_alerts": user.wagon_alerts,
                "email_digest": user.email_digest,
                "language": user.language,
                "theme": user.theme,
            },
        )
    # The capabilities' own preferences and addresses (push, the calendar feed): their
    # forms post to their own views and come back here.
    shown = panels.collect(panels.PROFILE, request=request, user=user)
    return render(request, "accounts/profile.html", {"form": form, "panels": shown})


@never_cache
@login_required
@require_POST
def email_try_again(request):
    """The member whose address the mail server refused asks to try it again: the game
    emails held since go out again (games/services/outbox.py)."""
    from games.services.outbox import email_try_again as try_again

    count = try_again(user=request.user)
    if count:
        # One sentence a count (the English reads the same for one).
        text = ngettext(
            "We will send your game emails to %(email)s again. The game emails held "
            "meanwhile (%(count)d) are on their way.",
            "We will send your game emails to %(email)s again. The game emails held "
            "meanwhile (%(count)d) are on their way.",
            count,
        )
    else:
        text = gettext("We will send your game emails to %(email)s again.")
    messages.success(request, text % {"email": request.user.email, "count": count})
    return redirect("profile")


@never_cache
@require_POST
def browser_time_zone(request):
    """The zone a visitor's browser reports (static/js/timezone.js, once a session): kept in
    the session for the visitor's pages and offered at sign-up. Only a zone of the list is
    kept (an old name becomes its city: Asia/Calcutta is Asia/Kolkata); anything else is
    refused and changes nothing. A member's own zone is never changed here."""
    name = request.POST.get("time_zone", "")
    zone = canonical_zone(name) if len(name) <= ZONE_NAME_MAX_LENGTH else None
    if zone is None:
        return JsonResponse({"error": gettext("Unknown time zone.")}, status=400)
    request.session[BROWSER_ZONE_KEY] = zone
    return JsonResponse({"time_zone": zone})
