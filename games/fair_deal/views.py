"""The fair deal's pages (docs/fair-deal.md): a game's sealed deal, and a check of any
deal text against any fingerprint. Both are public: before the finish a game's page shows
only what the first post already published."""

from django import forms
from django.shortcuts import render
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games.views.access import get_game_for_user

from .selectors import deal_check, fair_deal

TEXT_MAX = 20_000  # a deal text is about 40 characters a seat


class DealCheckForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Deal text"),
        max_length=TEXT_MAX,
        strip=False,  # fairness.verify decides what whitespace counts
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        help_text=gettext_lazy('Exactly as the final reveal publishes it, starting {"lovers".'),
    )
    commitment = forms.CharField(
        label=gettext_lazy("Fingerprint (SHA-256)"),
        max_length=200,
        widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
        help_text=gettext_lazy("The 64 hexadecimal digits the game’s first post published."),
    )


def game_fair_deal(request, game_id):
    game = get_game_for_user(request, game_id)
    return render(request, "fair_deal/fair_deal.html", {"game": game, "deal": fair_deal(game)})


@never_cache
@require_http_methods(["GET", "POST"])
def fair_deal_check(request):
    """A check writes nothing, but a 48-seat deal text is longer than a request line may
    be (gunicorn's limit is 4 KB): so the form is a POST."""
    form = DealCheckForm(request.POST if request.method == "POST" else None)
    check = None
    if form.is_valid():
        check = deal_check(form.cleaned_data["text"], form.cleaned_data["commitment"])
    return render(request, "fair_deal/fair_deal_check.html", {"form": form, "check": check})
