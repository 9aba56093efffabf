"""The community's rows in the admin (autodiscovered): members' absences, the replacement
list, offers and prods, whose actions call the community's services as the desk does; and
the games' "cancel" action (open games only), added to the core's GameAdmin."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy

from games.admin import GameAdmin, ModeratorActionsAdmin, ReadOnlyAdmin, _each_row
from games.engine import GameRuleError
from games.models import Absence, Prod, ReplacementOffer, ReplacementVolunteer

from .services import replacements, signups


@admin.action(
    description=gettext_lazy("Cancel the selected games (open ones only; their players are told)")
)
def cancel_games(modeladmin, request, queryset):
    _each_row(
        modeladmin,
        request,
        queryset,
        lambda g: signups.game_cancel(game=g, by=request.user),
        "cancelled.",
    )


GameAdmin.actions = (*GameAdmin.actions, cancel_games)


@admin.register(Absence)
class AbsenceAdmin(ReadOnlyAdmin):
    """Members' declared absences: theirs to declare and delete (the absences page)."""

    list_display = ("user", "starts_at", "ends_at", "note", "created_at")
    list_select_related = ("user",)
    search_fields = ("user__player_name", "note")
    date_hierarchy = "starts_at"


# --- replacements and prods (issue 16): the rows are the services'; the actions call them ---
def _each_seat(modeladmin, request, seats, do, done):
    """Run a moderator's service on each seat (logged as their act, like the desk's)."""
    if not request.user.has_perm("games.change_game"):
        modeladmin.message_user(request, "Only moderators can do that.", messages.ERROR)
        return
    _each_row(modeladmin, request, seats, do, done, label=lambda s: f"{s.name} in {s.game}")


@admin.action(description=gettext_lazy("Ask for a replacement for the seats of the selected rows"))
def mark_for_replacement(modeladmin, request, queryset):
    seats = {row.seat for row in queryset.select_related("seat__game")}
    _each_seat(
        modeladmin,
        request,
        seats,
        lambda s: replacements.replacement_mark(game=s.game, seat_name=s.name, by=request.user),
        "a replacement is wanted; the volunteers have the offer.",
    )


@admin.action(
    description=gettext_lazy("Keep the players of the selected rows' seats (no replacement)")
)
def unmark_for_replacement(modeladmin, request, queryset):
    seats = {row.seat for row in queryset.select_related("seat__game")}
    _each_seat(
        modeladmin,
        request,
        seats,
        lambda s: replacements.replacement_unmark(game=s.game, seat_name=s.name, by=request.user),
        "no replacement is wanted any more.",
    )


@admin.action(description=gettext_lazy("Take the selected members off the replacement list"))
def volunteers_remove(modeladmin, request, queryset):
    for row in queryset.select_related("user", "game"):
        try:
            replacements.volunteer_leave(user=row.user, game=row.game)
        except GameRuleError as e:
            modeladmin.message_user(request, f"{row}: {e}", messages.ERROR)
    modeladmin.message_user(request, "Taken off the list; their open offers closed.")


@admin.register(ReplacementVolunteer)
class ReplacementVolunteerAdmin(ModeratorActionsAdmin):
    """The replacement list: members add and leave it on the replacements page."""

    list_display = ("user", "game", "hours_per_week", "note", "created_at")
    list_select_related = ("user", "game")
    search_fields = ("user__player_name", "game__title")
    actions = (volunteers_remove,)


@admin.register(ReplacementOffer)
class ReplacementOfferAdmin(ReadOnlyAdmin):
    list_display = ("seat", "game", "user", "status", "created_at", "answered_at")
    list_select_related = ("seat__game", "user")
    list_filter = ("status",)
    search_fields = ("user__player_name", "seat__name", "seat__game__title")
    actions = (mark_for_replacement, unmark_for_replacement)

    @admin.display(description="Game", ordering="seat__game")
    def game(self, offer):
        return offer.seat.game


@admin.register(Prod)
class ProdAdmin(ReadOnlyAdmin):
    """Prods the sweep sent (services/prods.py); a second one marked the seat."""

    list_display = ("seat", "game", "user", "number", "phase", "created_at")
    list_select_related = ("seat__game", "user")
    list_filter = ("number",)
    search_fields = ("user__player_name", "seat__name", "seat__game__title")
    date_hierarchy = "created_at"
    actions = (mark_for_replacement, unmark_for_replacement)

    @admin.display(description="Game", ordering="seat__game")
    def game(self, prod):
        return prod.seat.game
