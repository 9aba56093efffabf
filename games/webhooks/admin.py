"""The webhooks in the admin (autodiscovered): site-wide destinations (no game) are added
here, a game's too. The address and the token are write-only: the form never shows what
is stored (a blank field keeps it), the list shows the host alone, and a signed
endpoint's new secret is shown once, on the page that answers its creation. Deliveries
are read-only; their payloads are public words, their errors carry no secret."""

from django import forms
from django.contrib import admin
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy

from games.admin import ReadOnlyAdmin
from games.engine import GameRuleError
from games.models import WebhookDelivery, WebhookEndpoint

from .narration import EVENT_LABELS
from .secrets import seal, signing_secret_new
from .services.endpoints import host_checked
from .story import EVENTS


class EndpointAdminForm(forms.ModelForm):
    address = forms.CharField(
        label=gettext_lazy("Address"), required=False, max_length=2000,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy("Write-only: leave it blank to keep the stored one."),
    )  # fmt: skip
    token = forms.CharField(
        label=gettext_lazy("Matrix access token"), required=False, max_length=1000,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy("Write-only: leave it blank to keep the stored one."),
    )  # fmt: skip
    events = forms.MultipleChoiceField(
        choices=[(e, EVENT_LABELS[e]) for e in EVENTS], widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = WebhookEndpoint
        fields = ("game", "kind", "room", "events", "mentions", "language", "enabled")

    def clean(self):
        data = super().clean()
        address = data.get("address", "").strip()
        if not address and not self.instance.pk:
            self.add_error("address", gettext_lazy("The address is needed."))
        elif address:
            try:
                data["host"] = host_checked(address)
            except GameRuleError as e:
                self.add_error("address", str(e))
        if data.get("kind") == WebhookEndpoint.Kind.MATRIX and not (
            data.get("token") or self.instance.secret_sealed
        ):
            self.add_error("token", gettext_lazy("The Matrix access token is needed."))
        return data


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    form = EndpointAdminForm
    list_display = ("__str__", "game", "enabled", "failures", "disabled_reason", "created_at")
    list_filter = ("kind", "enabled")
    raw_id_fields = ("game",)
    readonly_fields = ("host", "failures", "disabled_reason", "disabled_at")

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if data.get("address"):
            obj.address_sealed, obj.host = seal(data["address"].strip()), data["host"]
        if obj.kind == WebhookEndpoint.Kind.MATRIX and data.get("token"):
            obj.secret_sealed = seal(data["token"].strip())
        if obj.kind == WebhookEndpoint.Kind.GENERIC and not obj.secret_sealed:
            request._webhook_secret = signing_secret_new()  # shown once, below
            obj.secret_sealed = seal(request._webhook_secret)
        if obj.enabled:
            obj.failures, obj.disabled_reason, obj.disabled_at = 0, "", None
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def response_add(self, request, obj, post_url_continue=None):
        secret = getattr(request, "_webhook_secret", "")
        if secret:
            context = {**self.admin_site.each_context(request), "endpoint": obj, "secret": secret}
            return TemplateResponse(request, "webhooks/admin_secret.html", context)
        return super().response_add(request, obj, post_url_continue)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ("event", "endpoint", "status", "attempts", "last_error", "created_at")
    list_filter = ("status", "event")
    list_select_related = ("endpoint",)
    exclude = ("payload",)
