"""The scripts' words (static/js): Django's JavaScript catalog, one address per language.

The catalog's address names its language (/jsi18n/de/), so a browser or proxy that keeps
it never hands a reader who switched language the other one's words. Only the project's
own catalog (locale/<code>/LC_MESSAGES/djangojs.po) is sent, not the admin's.
"""

from django.conf import settings
from django.http import Http404
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

# A deploy's new words reach a reader within the hour.
CATALOG_MAX_AGE = 3600

_catalog = JavaScriptCatalog.as_view(packages=["witchhunt"])


@cache_control(public=True, max_age=CATALOG_MAX_AGE)
def javascript_catalog(request, lang: str):
    if lang not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(lang):
        return _catalog(request)
