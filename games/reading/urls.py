"""The capability's pages (included by witchhunt/urls.py)."""

from .views import notes

urlpatterns = [
    *notes.urlpatterns,
]
