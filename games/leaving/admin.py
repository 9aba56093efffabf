"""The admin's "delete these members' accounts" on the members' list: the same erasure as
the member's own page (services.member_erase), after a typed confirmation. Only an admin
who may delete members (accounts.delete_user) sees it. accounts/admin.py registers the
members' admin first (INSTALLED_APPS' order), and this adds the action to it."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.template.response import TemplateResponse
from django.utils.translation import gettext, gettext_lazy

from games.engine import GameRuleError
from games.narration import refusal_words

from .forms import AdminEraseForm
from .services import member_erase


@admin.action(
    permissions=["delete"],
    description=gettext_lazy("Delete the chosen members' accounts (for good)"),
)
def member_erase_action(modeladmin, request, queryset):
    members = list(queryset.filter(left_at__isnull=True).order_by("pk"))
    form = AdminEraseForm(request.POST if "erase" in request.POST else None)
    if form.is_bound and form.is_valid():
        for member in members:
            if member.pk == request.user.pk:
                modeladmin.message_user(
                    request,
                    gettext("Your own account is deleted from your profile page, not here."),
                    messages.ERROR,
                )  # fmt: skip
                continue
            try:
                member_erase(user=member, by=request.user)
            except GameRuleError as error:
                said = gettext("%(member)s: %(refusal)s") % {
                    "member": member,
                    "refusal": refusal_words(error),
                }
                modeladmin.message_user(request, said, messages.ERROR)
            else:
                said = gettext("Member %(number)s's account is deleted.") % {"number": member.pk}
                modeladmin.message_user(request, said)
        return None
    context = {**modeladmin.admin_site.each_context(request), "members": members, "form": form,
               "title": gettext_lazy("Delete members' accounts")}  # fmt: skip
    return TemplateResponse(request, "leaving/admin_erase.html", context)


_members = admin.site._registry.get(get_user_model())
if _members is not None and member_erase_action not in (_members.actions or ()):
    _members.actions = [*(_members.actions or ()), member_erase_action]
