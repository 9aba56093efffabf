"""A member's language: which one a page is shown in, and which one their emails are
written in.

A visitor's pages follow the language they chose with the footer's switcher (Django's
language cookie), else their browser's (Accept-Language): LocaleMiddleware decides that.
A signed-in member who chose a language (User.language) gets it on every page, whatever
the browser says; one who left it blank follows the browser like a visitor.

Emails have no browser to ask: each is written in its recipient's language, or in
LANGUAGE_CODE when they chose none (`in_language_of`), by the web process and the Celery
workers alike.
"""

from contextlib import contextmanager

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


def language_choices(*, blank_label=None) -> list[tuple[str, str]]:
    """The site's languages, each named in itself ("Deutsch", not "German": a reader
    looks for their own); with `blank_label` first, the choice to follow the browser."""
    choices = [
        (code, translation.get_language_info(code)["name_local"]) for code, _ in settings.LANGUAGES
    ]
    return [("", blank_label), *choices] if blank_label else choices


def language_field(*, help_text) -> forms.ChoiceField:
    """The language select of the sign-up and profile forms; blank follows the browser."""
    return forms.ChoiceField(
        label=gettext_lazy("Language"),
        choices=language_choices(blank_label=gettext_lazy("My browser’s language")),
        required=False,
        help_text=help_text,
    )


def member_language(user, default: str | None = None) -> str:
    """The language `user`'s emails are written in: their own choice, else `default`
    (LANGUAGE_CODE unless given: a worker has no browser to follow)."""
    chosen = getattr(user, "language", "") if user is not None else ""
    if chosen and translation.check_for_language(chosen):
        return chosen
    return default or settings.LANGUAGE_CODE


@contextmanager
def in_language_of(user, default: str | None = None):
    """Everything rendered inside (an email's subject and body) is in `user`'s language."""
    with translation.override(member_language(user, default)):
        yield


def lazy_words(words, *args, **kwargs):
    """`words(*args, **kwargs)`, called only when shown: in the language active then. For
    words decided once for many recipients (a phase email's announcements) and rendered
    for each in their own language (`in_language_of`)."""
    return lazy(words, str)(*args, **kwargs)


class MemberLanguageMiddleware:
    """After AuthenticationMiddleware and LocaleMiddleware: a signed-in member's chosen
    language wins over the cookie and the browser. The user is read already (the session
    and the time zone need it), so this costs no query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        chosen = getattr(user, "language", "") if user.is_authenticated else ""
        if chosen and chosen != request.LANGUAGE_CODE and translation.check_for_language(chosen):
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        response = self.get_response(request)
        # A language chosen on the sign-up form: kept in the language cookie, as the
        # switcher keeps a visitor's, for the pages until they first sign in.
        chosen = getattr(request, "language_chosen", "")
        if chosen and translation.check_for_language(chosen):
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                chosen,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response


@require_POST
def set_language(request):
    """The footer's switcher: Django's set_language (the cookie, then back to the page),
    and for a signed-in member their preference too, or the switch would be undone on the
    next page by the preference they set before."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    user = request.user
    if user.is_authenticated and code in dict(settings.LANGUAGES) and user.language != code:
        user.language = code
        user.save(update_fields=["language"])
    return response
