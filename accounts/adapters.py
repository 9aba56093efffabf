from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.core.exceptions import PermissionDenied
from django.utils import translation

from witchhunt.proxy import client_address

from .language import in_language_of
from .mail import queue_email, site_identity
from .middleware import browser_zone
from .models import User
from .services import host_grant_if_first
from .zones import UTC


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        # The player name must be set before the first save: its key is unique, and an empty
        # one would collide with the next sign-up's.
        user = super().save_user(request, user, form, commit=False)
        user.player_name = form.cleaned_data["player_name"]
        user.time_zone = form.cleaned_data.get("time_zone") or browser_zone(request) or UTC
        user.language = form.cleaned_data.get("language") or ""
        # The pages after sign-up (before the address is confirmed nobody is signed in)
        # follow the language chosen on the form, not the browser's (language.py).
        request.language_chosen = user.language
        if commit:
            user.save()
            # In the sign-up's transaction (SignupForm.try_save): a sign-up that rolls back
            # grants nothing.
            host_grant_if_first(user)
        return user

    def get_client_ip(self, request):
        """The address allauth's per-address rate limits count: the visitor's, which the
        TLS proxy names, never the proxy's own (witchhunt/proxy.py)."""
        address = client_address(request)
        if address is None:
            raise PermissionDenied("Unable to determine client IP address")
        return address

    def send_mail(self, template_prefix, email, context):
        """Every account email (verification, password reset, "you already have an
        account") is rendered here and sent by the Celery worker once the request's
        transaction commits (accounts/mail.py): a slow or unreachable mail server never
        fails or holds up the page, and the worker tries again until it answers."""
        request = allauth_context.request
        # The site by its name, not by the address the request came to (allauth's default
        # without django.contrib.sites, which says "127.0.0.1:8000").
        ctx = {"request": request, "email": email, "current_site": site_identity()}
        ctx.update(context)
        # In the language of the member the address is theirs, else in the page's (a
        # sign-up's, a reset asked for an unknown address).
        with in_language_of(_member(email, context), translation.get_language()):
            queue_email(self.render_mail(template_prefix, email, ctx))


def _member(email: str, context: dict):
    """The member an account email goes to, when there is one."""
    user = context.get("user")
    if user is not None:
        return user
    return User.objects.filter(email__iexact=email).first()
