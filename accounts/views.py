from allauth.account.views import SignupView as AllauthSignupView
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache

from .forms import ProfileForm, SignupConflict
from .services import user_profile_update


class SignupView(AllauthSignupView):
    """allauth's sign-up page, where a sign-up that lost a race for its player name (a
    unique index refused the insert) shows the form again with the error, as if the name
    had been taken before (accounts.forms.SignupForm.try_save)."""

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
        form = ProfileForm(request.POST)
        if form.is_valid():
            user_profile_update(user=user, **form.cleaned_data)
            messages.success(request, "Your profile is saved.")
            return redirect("profile")
    else:
        form = ProfileForm(
            initial={
                "time_zone": user.time_zone,
                "email_deadline_reminders": user.email_deadline_reminders,
                "email_phase_changes": user.email_phase_changes,
            }
        )
    return render(request, "accounts/profile.html", {"form": form})
