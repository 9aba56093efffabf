"""The archive (issue 16): finished games, browsable and searchable with a plain GET form."""

from django.shortcuts import render
from django.urls import path

from games.forms import ArchiveSearchForm
from games.selectors.archive import ArchiveFilter, archive_page
from witchhunt.converters import parse_id

MAX_PAGE = 10_000  # an OFFSET of 200,000 games: further is a typed address, shown empty


def archive(request):
    # Everything here is public: the selector reads finished games alone.
    query = request.GET.copy()
    query.pop("page", None)
    form = ArchiveSearchForm(query or None)
    filters = form.search() if query else {}
    page = min(parse_id(request.GET.get("page")) or 1, MAX_PAGE)
    return render(
        request,
        "games/archive.html",
        {
            "form": form,
            "page": archive_page(ArchiveFilter(**filters), page),
            "query": query.urlencode(),
        },
    )


urlpatterns = [
    path("archive/", archive, name="archive"),
]
