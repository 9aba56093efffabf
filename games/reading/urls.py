"""The capability's pages (included by witchhunt/urls.py)."""

from .views import since

urlpatterns = [
    *since.urlpatterns,
]
