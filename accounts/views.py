from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache

from .forms import ProfileForm
from .services import user_profile_update


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
