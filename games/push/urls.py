"""Web push's pages (included by witchhunt/urls.py)."""

from .views import urlpatterns  # noqa: F401
