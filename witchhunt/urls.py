from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from accounts.language import set_language
from games.admin import index_with_clock_beat
from games.views.lobby import home

from .jsi18n import javascript_catalog

# The admin's own login form would skip allauth's rate limits and email verification:
# anonymous visitors are sent to allauth's sign-in page instead.
admin.site.login = secure_admin_login(admin.site.login)
admin.site.index = index_with_clock_beat(admin.site.index)

urlpatterns = [
    path("", home, name="home"),
    path("", include("games.urls")),
    path("", include("games.fair_deal.urls")),
    path("", include("games.lab.urls")),
    path("", include("games.reading.urls")),
    path("", include("games.community.urls")),
    path("", include("games.archive.urls")),
    path("", include("games.leaving.urls")),
    path("", include("games.calendar.urls")),
    path("", include("games.viewer.urls")),
    path("", include("games.reports.urls")),
    path("", include("games.webhooks.urls")),
    path("", include("games.anonymous.urls")),
    path("", include("games.push.urls")),
    path("", include("games.spectators.urls")),
    # The project's account pages first: its sign-up view replaces allauth's at the same
    # address (accounts/urls.py).
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    # The footer's language switcher, and the scripts' words in the page's language.
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/<str:lang>/", javascript_catalog, name="javascript_catalog"),
]
