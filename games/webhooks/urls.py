"""The webhooks' pages (included by witchhunt/urls.py): the desk's controls."""

from .views import urlpatterns  # noqa: F401
