"""Views, one module per area; each module defines its own `urlpatterns` (games/urls.py).

Every view starts with one access helper (access.py): a missing or forbidden game or seat
is a 404. Private pages are never cached; mutations are POST with CSRF.
"""
