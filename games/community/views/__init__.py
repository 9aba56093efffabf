"""The community's pages, one module per area, each with its own `urlpatterns`
(community/urls.py gathers them)."""
