"""Reports in the admin (autodiscovered), read-only: the site's staff see every game's
reports and their outcomes; each is settled by its game's moderator on the desk. Whom a
member ignores is theirs alone and stays out of the admin."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin
from games.models import PostReport


@admin.register(PostReport)
class PostReportAdmin(ReadOnlyAdmin):
    list_display = ("game", "post", "reporter", "reason", "state", "created_at", "settled_at")
    list_filter = ("state", "reason")
    list_select_related = ("game", "post", "reporter")
    search_fields = ("game__title", "reporter__player_name", "note")
    date_hierarchy = "created_at"
