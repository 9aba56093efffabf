from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import PermissionDenied

from witchhunt.proxy import client_address

from .mail import queue_email


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        # The player name must be set before the first save: its key is unique, and an empty
        # one would collide with the next sign-up's.
        user = super().save_user(request, user, form, commit=False)
        user.player_name = form.cleaned_data["player_name"]
        if commit:
            user.save()
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
        ctx = {"request": request, "email": email, "current_site": get_current_site(request)}
        ctx.update(context)
        queue_email(self.render_mail(template_prefix, email, ctx))
