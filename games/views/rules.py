"""The rules pages: both rulesets, every ruling, a page per card.

Public and the same for everyone: Witchhunt's preface says no mechanic may be hidden.
"""

from django.http import Http404
from django.shortcuts import render
from django.urls import path

from games import rulebook


def _get_ruleset(slug: str) -> rulebook.Ruleset:
    found = rulebook.ruleset(slug)
    if found is None:
        raise Http404("No such ruleset.")
    return found


def rules(request):
    return render(request, "games/rules.html", {"rulesets": rulebook.rulesets()})


def ruleset_page(request, ruleset: str):
    return render(request, "games/rules_ruleset.html", {"ruleset": _get_ruleset(ruleset)})


def card_page(request, ruleset: str, key: str, group: str):
    found = _get_ruleset(ruleset)
    card = found.card(group, key)
    if card is None:
        raise Http404("No such card.")
    previous, following = found.neighbours(card)
    return render(
        request,
        "games/rules_card.html",
        {"ruleset": found, "card": card, "previous": previous, "next": following},
    )


urlpatterns = [
    path("rules/", rules, name="rules"),
    path("rules/<slug:ruleset>/", ruleset_page, name="rules_ruleset"),
    path(
        "rules/<slug:ruleset>/cards/<slug:key>/",
        card_page,
        {"group": rulebook.CARDS},
        name="rules_card",
    ),
    path(
        "rules/<slug:ruleset>/types/<slug:key>/",
        card_page,
        {"group": rulebook.TYPES_GROUP},
        name="rules_type",
    ),
]
