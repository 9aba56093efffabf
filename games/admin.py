"""The admin: games with their seats, and the append-only engine rows read-only.

Every write goes through the services: a game is created on the "new game" page, and the
"start" and "advance now" actions call games.services and report a refusal's reason.
"Advance now" asks first, listing each game with its phase, and ends those phases only.
"""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Count
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from games import services
from games.engine import GameRuleError
from games.narration import duration_words, phase_label, refusal_words
from games.selectors.heartbeat import clock_beat

from .models import (
    Assignment,
    EmailSent,
    Game,
    GameEmail,
    GameEvent,
    GameInput,
    PhaseLockIn,
    Post,
    PostModeration,
    Seat,
    SeatTenure,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the engine appends (inputs, events) or the services write: view only."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ModeratorActionsAdmin(ReadOnlyAdmin):
    """Read-only rows whose actions are the moderator's: they need the change permission
    on games (the rows themselves stay read-only); the services then check who moderates
    which game."""

    def get_actions(self, request):
        if not request.user.has_perm("games.change_game"):
            return {}
        return super().get_actions(request)


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("position", "name", "user", "joined_at", "cards")
    readonly_fields = fields
    ordering = ("position", "joined_at")
    extra = 0
    can_delete = False
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user", "assignment")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description=gettext_lazy("Cards"))
    def cards(self, seat):
        try:
            return str(seat.assignment)
        except Assignment.DoesNotExist:
            return "—"


def _each_row(modeladmin, request, queryset, do, done, label=str):
    """Run a moderator's service on each chosen row (a game, a post, a seat), saying how
    each went, the row named by `label`."""
    for row in queryset:
        try:
            do(row)
        except GameRuleError as e:
            modeladmin.message_user(request, f"{label(row)}: {refusal_words(e)}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{label(row)}: {done}", messages.SUCCESS)


@admin.action(description=gettext_lazy("Start the selected games"))
def start_games(modeladmin, request, queryset):
    _each_row(
        modeladmin,
        request,
        queryset,
        lambda g: services.game_start(game=g, by=request.user),
        "started.",
    )


def _advance_one(request, game):
    """End the phase the confirmation page showed for `game` (its `phase-<id>` field),
    and no other: a game that moved on since is refused and left as it is."""
    phase = request.POST.get(f"phase-{game.pk}", "")
    if not phase:
        raise GameRuleError("this form does not say which phase to end: nothing was changed.")
    services.phase_advance(game=game, by=request.user, expected_phase=phase)
    return f"{phase_label(phase)} has ended."


@admin.action(description=gettext_lazy("Advance now: end the current phase"))
def advance_games(modeladmin, request, queryset):
    """First a confirmation page listing each selected game with its current phase; its
    POST (`post=yes`) carries each game's phase back, so that a game whose phase changed
    meanwhile (the clock, a double submit, another moderator) is refused, not advanced
    a second time."""
    if request.POST.get("post") != "yes":
        opts = modeladmin.model._meta
        return TemplateResponse(
            request,
            "admin/games/game/advance_confirmation.html",
            {
                **modeladmin.admin_site.each_context(request),
                "title": gettext("End the current phase of these games?"),
                "opts": opts,
                "games": list(queryset.order_by("pk")),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )
    for game in queryset.order_by("pk"):
        try:
            done = _advance_one(request, game)
        except GameRuleError as e:
            modeladmin.message_user(request, f"{game}: {refusal_words(e)}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{game}: {done}", messages.SUCCESS)
    return None


@admin.action(description=gettext_lazy("Retry the clock now (after a failed phase change)"))
def retry_clock(modeladmin, request, queryset):
    _each_row(
        modeladmin,
        request,
        queryset,
        lambda g: services.clock_retry(game=g, by=request.user),
        "the clock will retry at its next sweep.",
    )


def _with_clock_beat(extra_context):
    return {**(extra_context or {}), "clock_beat": clock_beat()}


def index_with_clock_beat(index):
    """The admin's front page, saying when the clock last ran (witchhunt/urls.py)."""

    def view(request, extra_context=None):
        return index(request, _with_clock_beat(extra_context))

    return view


@admin.register(Game)
class GameAdmin(ModeratorActionsAdmin):
    list_display = (
        "title",
        "ruleset",
        "revision",
        "status",
        "phase",
        "deadline_at",
        "paused_at",
        "early_end_shown",
        "host",
        "seats_filled",
        "clock_failures",
        "signups_close_at",
        "created_at",
    )
    list_filter = ("status", "ruleset", "revision", "early_end", "start_when_full")
    search_fields = ("title", "host__player_name", "host__email")
    date_hierarchy = "created_at"
    list_select_related = ("host",)
    inlines = (SeatInline,)
    actions = (start_games, advance_games, retry_clock)  # + the community's cancel
    # Not editable (the services set it), so shown only when named here.
    readonly_fields = ("revision", "early_end_phase", "signups_lapsed_at")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(filled=Count("seats"))

    @admin.display(description=gettext_lazy("Early end"), ordering="early_end")
    def early_end_shown(self, game):
        """W-2a: off, or the grace period once every living player is done."""
        return f"after {duration_words(game.early_end_grace)}" if game.early_end else "off"

    @admin.display(description=gettext_lazy("Seats"), ordering="filled")
    def seats_filled(self, game):
        return f"{game.filled} / {game.seats_count}"

    def changelist_view(self, request, extra_context=None):
        # The list says when the clock last ran (docs/operations.md, "Watch it").
        return super().changelist_view(request, _with_clock_beat(extra_context))

    def add_view(self, request, form_url="", extra_context=None):
        # One way to create a game: the "new game" page, which checks the deal (W-23).
        return redirect(reverse("game_new"))

    def has_add_permission(self, request, obj=None):
        return request.user.has_perm("games.add_game")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("name", "game", "user", "position", "joined_at")
    list_select_related = ("game", "user")
    search_fields = ("name", "user__player_name", "game__title")
    list_filter = ("game__status",)


@admin.register(Assignment)
class AssignmentAdmin(ReadOnlyAdmin):
    list_display = ("seat", "game", "character", "type", "role")
    list_select_related = ("seat__game",)
    search_fields = ("seat__name", "seat__game__title")
    list_filter = ("type", "role")

    @admin.display(description=gettext_lazy("Game"), ordering="seat__game")
    def game(self, assignment):
        return assignment.seat.game


@admin.register(GameInput)
class GameInputAdmin(ReadOnlyAdmin):
    list_display = ("game", "index", "phase", "seat", "by", "step", "created_at")
    list_select_related = ("game", "seat", "by")
    list_filter = ("game__status",)
    search_fields = ("game__title",)
    ordering = ("game", "index")


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("game", "index", "phase", "kind", "audience", "meeting", "data")
    list_select_related = ("game",)
    list_filter = ("audience", "kind")
    search_fields = ("game__title",)
    ordering = ("game", "index")


def _each_post(modeladmin, request, queryset, service, done):
    """A post service (post_hide, post_show) on each chosen post, as the admin's user."""
    _each_row(
        modeladmin,
        request,
        queryset.select_related("game"),
        lambda p: service(game=p.game, thread=p.thread, number=p.number, by=request.user),
        done,
    )


@admin.action(
    description=gettext_lazy("Hide the selected posts (players' posts; their threads say so)")
)
def hide_posts(modeladmin, request, queryset):
    _each_post(modeladmin, request, queryset, services.post_hide, "hidden.")


@admin.action(description=gettext_lazy("Show the selected hidden posts again"))
def show_posts(modeladmin, request, queryset):
    _each_post(modeladmin, request, queryset, services.post_show, "shown again.")


@admin.register(Post)
class PostAdmin(ModeratorActionsAdmin):
    list_display = (
        "game",
        "thread",
        "number",
        "kind",
        "author",
        "phase",
        "created_at",
        "hidden_at",
    )
    list_select_related = ("game", "author")
    list_filter = ("kind", "thread", ("hidden_at", admin.EmptyFieldListFilter))
    search_fields = ("game__title", "body", "author__player_name")
    ordering = ("game", "thread", "number")
    readonly_fields = ("hidden_at", "hidden_by", "hidden_reason")
    actions = (hide_posts, show_posts)


@admin.register(PostModeration)
class PostModerationAdmin(ReadOnlyAdmin):
    """Each hide and show of a post (the actions on the posts' page, or the desk)."""

    list_display = ("post", "act", "by", "reason", "phase", "created_at")
    list_select_related = ("post", "by")
    list_filter = ("act",)
    search_fields = ("post__game__title", "by__player_name", "reason")


@admin.register(PhaseLockIn)
class PhaseLockInAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "phase", "created_at")
    list_filter = ("game",)


@admin.register(EmailSent)
class EmailSentAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "kind", "phase", "hours", "created_at")
    list_filter = ("kind",)


@admin.register(GameEmail)
class GameEmailAdmin(ReadOnlyAdmin):
    """The game emails' outbox (games/services/outbox.py): what went, what waits for the
    mail server, what was refused. The message itself is left out: a role email holds
    the player's cards."""

    list_display = (
        "template", "user", "game", "status", "tries", "next_try_at", "last_error",
        "created_at", "sent_at",
    )  # fmt: skip
    list_select_related = ("user", "game")
    list_filter = ("status", "template")
    search_fields = ("user__player_name", "game__title")
    exclude = ("message",)
    date_hierarchy = "created_at"


@admin.register(SeatTenure)
class SeatTenureAdmin(ReadOnlyAdmin):
    """Who held which seat when (written by the sign-up and replacement services)."""

    list_display = ("seat", "user", "replacing", "began_at", "ended_at", "left")
    list_select_related = ("seat", "user")
    list_filter = ("left", "replacing")
    search_fields = ("user__player_name", "seat__name", "seat__game__title")
    date_hierarchy = "began_at"
