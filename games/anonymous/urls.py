"""The anonymous games' pages (included by witchhunt/urls.py): the desk's form."""

from .views import urlpatterns  # noqa: F401
