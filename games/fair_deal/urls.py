"""The capability's pages (included by witchhunt/urls.py)."""

urlpatterns = []
