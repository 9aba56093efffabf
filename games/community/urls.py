"""The community's pages (included by witchhunt/urls.py): the desk's sign-up controls,
the replacement list and offers, a player's ask to leave, and a member's absences."""

from .views import absences, replacements, signups

urlpatterns = signups.urlpatterns + replacements.urlpatterns + absences.urlpatterns
