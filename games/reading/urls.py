"""Reading's pages (included by witchhunt/urls.py): the notes page, "since you last read"
and "mark all read"."""

from .views import notes, since

urlpatterns = [
    *notes.urlpatterns,
    *since.urlpatterns,
]
