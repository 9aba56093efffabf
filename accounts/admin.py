from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy

from .forms import UniquePlayerNameMixin
from .models import User


class UserCreateForm(UniquePlayerNameMixin, AdminUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "player_name")


class UserEditForm(UniquePlayerNameMixin, UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = UserEditForm
    add_form = UserCreateForm
    ordering = ("email",)
    list_display = ("email", "player_name", "is_staff", "is_active", "date_joined")
    search_fields = ("email", "player_name")
    readonly_fields = ("player_key", "last_login", "date_joined")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        (
            gettext_lazy("Player"),
            {
                "fields": (
                    "player_name",
                    "player_key",
                    "time_zone",
                    "email_deadline_reminders",
                    "email_phase_changes",
                )
            },
        ),
        (
            gettext_lazy("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (gettext_lazy("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "player_name", "usable_password", "password1", "password2"),
            },
        ),
    )
