"""The rules pages: both rulesets, every ruling, a page per card."""
from django.shortcuts import render
from django.urls import path


def rules(request):
    return render(request, "games/rules.html")


urlpatterns = [
    path("rules/", rules, name="rules"),
]
